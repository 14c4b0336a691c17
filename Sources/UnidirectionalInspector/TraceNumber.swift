/// The numbers of a trace: JSON number literals read without going through `String` in the common case, and the
/// whole numbers trace events use for ids and sequence numbers.
///
/// ```swift
/// TraceNumber.decimal(bytes)          // "10100.509" → 10100.509; nil for "1e3" (the caller falls back)
/// TraceNumber.count(3.0)              // 3; nil for -1, 2.5 or 1e300
/// ```
enum TraceNumber {
  /// A whole number from 0 to 2⁵³ (exact in a `Double`), else `nil`.
  static func count(_ number: Double?) -> UInt64? {
    guard let number, number >= 0, number <= 9_007_199_254_740_992, number.rounded() == number else { return nil }
    return UInt64(number)
  }

  /// `-?digits[.digits]` with at most 15 digits, exactly (both parts of the division are exact in a `Double`, so
  /// the quotient is correctly rounded); `nil` for any other form.
  static func decimal(_ text: UnsafeRawBufferPointer) -> Double? {
    var mantissa: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
    var sawPoint = false
    let negative = text.first == UInt8(ascii: "-")
    for byte in text.dropFirst(negative ? 1 : 0) {
      if isDigit(byte) {
        mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
        digits += 1
        if sawPoint { fractionDigits += 1 }
        guard digits <= 15 else { return nil }
      } else if byte == UInt8(ascii: "."), !sawPoint {
        sawPoint = true
      } else {
        return nil
      }
    }
    guard digits > 0 else { return nil }
    let value = Double(mantissa) / powersOfTen[fractionDigits]
    return negative ? -value : value
  }

  /// 10⁰ … 10¹⁵, each exact.
  private static let powersOfTen: [Double] = (0...15).map { exponent in
    (0..<exponent).reduce(1.0) { value, _ in value * 10 }
  }

  /// An ASCII digit.
  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// A byte a JSON number literal can have.
  static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
      UInt8(ascii: "e"), UInt8(ascii: "E"):
      true
    default: false
    }
  }
}

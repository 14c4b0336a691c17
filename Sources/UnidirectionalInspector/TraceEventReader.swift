/// Reads the events of a Chrome Trace Event file (the JSON Array Format, `[{…},{…}]`, or the Object Format,
/// `{"traceEvents":[…]}`) one at a time from bytes that may be hostile or cut short.
///
/// Nothing in the file can make it trap or grow without bound: values nest at most ``depthLimit`` deep, a string
/// keeps its first ``keptStringLimit`` bytes (the rest is read and dropped), and a number literal is at most 64
/// characters. A file that ends inside the event array — a run that never closed its trace — reads as
/// `.end(truncated: true)` after its last complete event, as trace viewers accept it.
///
/// ```swift
/// var reader = TraceEventReader(bytes)
/// while case let .event(fields) = try reader.next() { print(fields["name"]) }
/// ```
struct TraceEventReader {
  /// A JSON value, as one event parses into.
  enum Value: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Value])
    case object([String: Value])
  }

  /// What ``next()`` found.
  enum Next: Equatable {
    /// An event (an object in the array).
    case event([String: Value])
    /// An element that is not an object (ignored by trace viewers).
    case other
    /// No more events; `truncated` when the file ended before the array did.
    case end(truncated: Bool)
  }

  /// Why the bytes are not a trace: where, and what was wrong.
  struct Failure: Error, Equatable {
    let offset: Int
    let reason: String
    /// The bytes ended in the middle of a value.
    let atEnd: Bool
  }

  static let depthLimit = 20
  static let keptStringLimit = 4_096

  private enum Place { case start, firstInArray, inArray, afterArray, done }

  private let bytes: UnsafeRawBufferPointer
  private var position = 0
  private var place = Place.start
  /// The Object Format: the keys after `traceEvents` are still to be read.
  private var inObject = false

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// The next event, or the end.
  mutating func next() throws(Failure) -> Next {
    do throws(Failure) {
      switch place {
      case .start:
        try openEventArray()
        return try next()
      case .firstInArray, .inArray:
        skipWhitespace()
        guard position < bytes.count else { return finish(truncated: true) }
        if bytes[position] == UInt8(ascii: "]") {
          position += 1
          place = .afterArray
          return try next()
        }
        if place == .inArray {
          try expect(",")
          skipWhitespace()
          guard position < bytes.count else { return finish(truncated: true) }
          // A trailing comma before the bracket (as a cut-and-closed file may have) is let through.
          if bytes[position] == UInt8(ascii: "]") { return try next() }
        }
        place = .inArray
        if case let .object(fields) = try value(depth: 1) { return .event(fields) }
        return .other
      case .afterArray:
        if inObject { try skipMembers(closing: true) }
        skipWhitespace()
        guard position == bytes.count else { throw failure("unexpected content after the trace") }
        return finish(truncated: false)
      case .done:
        return .end(truncated: false)
      }
    } catch  where error.atEnd {
      switch place {
      case .firstInArray, .inArray: return finish(truncated: true)
      case .afterArray, .done: return finish(truncated: false)
      case .start: throw Failure(offset: error.offset, reason: "the file ends before its events", atEnd: true)
      }
    }
  }

  private mutating func finish(truncated: Bool) -> Next {
    place = .done
    return .end(truncated: truncated)
  }

  /// Reads up to the first event: `[`, or `{` and the members before `"traceEvents": [`.
  private mutating func openEventArray() throws(Failure) {
    skipWhitespace()
    guard position < bytes.count else { throw Failure(offset: 0, reason: "the file is empty", atEnd: false) }
    if bytes[position] == UInt8(ascii: "[") {
      position += 1
      place = .firstInArray
      return
    }
    guard bytes[position] == UInt8(ascii: "{") else {
      throw failure("a trace is a JSON array of events or an object with traceEvents")
    }
    position += 1
    inObject = true
    try skipMembers(closing: false)
  }

  /// Reads object members, skipping their values, until `"traceEvents": [` (unless `closing`) or the object's end.
  private mutating func skipMembers(closing: Bool) throws(Failure) {
    var first = !closing
    while true {
      skipWhitespace()
      if peek("}") {
        position += 1
        guard closing else { throw failure("the object has no traceEvents array") }
        return
      }
      if !first { try expect(",") }
      first = false
      skipWhitespace()
      let key = try string()
      skipWhitespace()
      try expect(":")
      skipWhitespace()
      if key == "traceEvents", !closing {
        try expect("[")
        place = .firstInArray
        return
      }
      _ = try value(depth: 1, keep: false)
    }
  }

  // MARK: Values

  private mutating func value(depth: Int, keep: Bool = true) throws(Failure) -> Value {
    guard depth <= Self.depthLimit else { throw failure("values nest more than \(Self.depthLimit) deep") }
    skipWhitespace()
    guard position < bytes.count else { throw endFailure() }
    switch bytes[position] {
    case UInt8(ascii: "{"):
      position += 1
      var fields: [String: Value] = [:]
      skipWhitespace()
      if peek("}") {
        position += 1
        return .object(fields)
      }
      while true {
        skipWhitespace()
        let key = try string(keep: keep)
        skipWhitespace()
        try expect(":")
        let member = try value(depth: depth + 1, keep: keep)
        if keep { fields[key] = member }
        skipWhitespace()
        if peek("}") {
          position += 1
          return keep ? .object(fields) : .null
        }
        try expect(",")
      }
    case UInt8(ascii: "["):
      position += 1
      var elements: [Value] = []
      skipWhitespace()
      if peek("]") {
        position += 1
        return .array(elements)
      }
      while true {
        let element = try value(depth: depth + 1, keep: keep)
        if keep { elements.append(element) }
        skipWhitespace()
        if peek("]") {
          position += 1
          return keep ? .array(elements) : .null
        }
        try expect(",")
      }
    case UInt8(ascii: "\""):
      return .string(try string(keep: keep))
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default:
      return .number(try number())
    }
  }

  private mutating func string(keep: Bool = true) throws(Failure) -> String {
    guard position < bytes.count else { throw endFailure() }
    guard peek("\"") else { throw failure("a string was expected") }
    position += 1
    var kept: [UInt8] = []
    while true {
      guard position < bytes.count else { throw endFailure() }
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: kept, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard position < bytes.count else { throw endFailure() }
        let escape = bytes[position]
        position += 1
        let scalar: Unicode.Scalar
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = Unicode.Scalar(escape)
        case UInt8(ascii: "b"): scalar = "\u{8}"
        case UInt8(ascii: "f"): scalar = "\u{C}"
        case UInt8(ascii: "n"): scalar = "\n"
        case UInt8(ascii: "r"): scalar = "\r"
        case UInt8(ascii: "t"): scalar = "\t"
        case UInt8(ascii: "u"): scalar = try unicodeEscape()
        default: throw failure("an unknown escape in a string")
        }
        if keep, kept.count < Self.keptStringLimit { kept += Array(String(scalar).utf8) }
      case 0..<0x20:
        throw failure("a control character inside a string")
      default:
        if keep, kept.count < Self.keptStringLimit { kept.append(byte) }
      }
    }
  }

  /// The scalar of `\uXXXX` (after the `u`), joining a surrogate pair; a lone surrogate becomes U+FFFD.
  private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
    let high = try hexQuad()
    if (0xD800..<0xDC00).contains(high), peek("\\"), position + 1 < bytes.count,
      bytes[position + 1] == UInt8(ascii: "u")
    {
      let saved = position
      position += 2
      let low = try hexQuad()
      if (0xDC00..<0xE000).contains(low) {
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
      }
      position = saved
    }
    return Unicode.Scalar(high) ?? "\u{FFFD}"
  }

  private mutating func hexQuad() throws(Failure) -> UInt32 {
    guard position + 4 <= bytes.count else { throw endFailure() }
    var result: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = Character(Unicode.Scalar(bytes[position])).hexDigitValue else {
        throw failure("a \\u escape needs four hex digits")
      }
      result = result << 4 | UInt32(digit)
      position += 1
    }
    return result
  }

  private mutating func number() throws(Failure) -> Double {
    let start = position
    while position < bytes.count, position - start <= 64,
      bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+")
        || bytes[position] == UInt8(ascii: ".")
        || bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
    {
      position += 1
    }
    guard position < bytes.count else { throw endFailure() }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    let tooLong = position - start > 64
    guard !tooLong, let number = Double(text), number.isFinite else {
      position = start
      throw failure(tooLong ? "a number longer than 64 characters" : "a value was expected")
    }
    return number
  }

  private mutating func literal(_ word: StaticString) throws(Failure) {
    let count = word.utf8CodeUnitCount
    guard position + count <= bytes.count else { throw endFailure() }
    for index in 0..<count where bytes[position + index] != word.utf8Start[index] {
      throw failure("a value was expected")
    }
    position += count
  }

  // MARK: Bytes

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  private func peek(_ character: Unicode.Scalar) -> Bool {
    position < bytes.count && bytes[position] == UInt8(ascii: character)
  }

  private mutating func expect(_ character: Unicode.Scalar) throws(Failure) {
    guard position < bytes.count else { throw endFailure() }
    guard bytes[position] == UInt8(ascii: character) else { throw failure("\"\(character)\" was expected") }
    position += 1
  }

  private func failure(_ reason: String) -> Failure {
    Failure(offset: position, reason: reason, atEnd: false)
  }

  private func endFailure() -> Failure {
    Failure(offset: position, reason: "the file ends inside a value", atEnd: true)
  }
}

extension TraceEventReader.Value {
  /// The number, if this is one.
  var number: Double? {
    if case let .number(value) = self { return value }
    return nil
  }

  /// The string, if this is one.
  var string: String? {
    if case let .string(value) = self { return value }
    return nil
  }

  /// The member `key`, if this is an object with it.
  subscript(key: String) -> Self? {
    if case let .object(fields) = self { return fields[key] }
    return nil
  }

  /// The number as a whole number from 0 to 2⁵³ (exact in a `Double`), else `nil`.
  var count: UInt64? {
    guard let number, number >= 0, number <= 9_007_199_254_740_992, number.rounded() == number else { return nil }
    return UInt64(number)
  }
}

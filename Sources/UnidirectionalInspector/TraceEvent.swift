/// One event of a Chrome Trace Event file, as ``TraceEventReader`` reads it: the members the inspector uses (named
/// in `TraceSchema`, the format's one definition), the strings among them left undecoded in the file's bytes until
/// asked for (most events never need their names).
///
/// Valid only while the reader's bytes are: read it inside the loop that reads the events.
///
/// ```swift
/// if case let .event(event) = try reader.next(), event.is(event.category, TraceSchema.Category.action) {
///   print(event.sequence ?? 0, event.text(event.name) ?? "")
/// }
/// ```
struct TraceEvent {
  /// A string in the file: from its opening quote to just after its closing one.
  struct Text: Sendable {
    let start: Int
    let end: Int
    /// Whether it has backslash escapes (else its bytes are its UTF-8).
    let escaped: Bool
  }

  let bytes: UnsafeRawBufferPointer
  /// `name`, `cat`, `ph` and `args.name`.
  var name, category, phase, argumentName: Text?
  /// `ts` and `dur`, in microseconds.
  var time, duration: Double?
  /// `pid`, `tid`, and `args.sequence`, `args.effect`, `args.startedBy`, `args.count`: whole numbers from 0 to 2⁵³.
  var process, thread, sequence, effect, startedBy, count: UInt64?
  /// `args.cancelled`, `args.unfinished`.
  var cancelled = false
  var unfinished = false
  /// An action's `args.action`, `args.origin`, and, in a trace of a store's states, `args.state` and `args.diff`:
  /// where they are, decoded only when asked for.
  var action, origin, state, diff: Text?

  /// The text of `string`: its first `limit` bytes, escapes decoded.
  func text(_ string: Text?, limit: Int = TraceEventReader.keptStringLimit) -> String? {
    string.map { Self.decode($0, in: bytes, limit: limit) }
  }

  /// Whether `string` is `literal`.
  func `is`(_ string: Text?, _ literal: StaticString) -> Bool {
    guard let string else { return false }
    return Self.matches(string, literal, in: bytes)
  }

  /// Whether `string` in `bytes` is `literal`, comparing bytes unless it has escapes.
  static func matches(_ string: Text, _ literal: StaticString, in bytes: UnsafeRawBufferPointer) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard !string.escaped else { return decode(string, in: bytes) == literal.description }
    guard string.end - string.start - 2 == count else { return false }
    for index in 0..<count where bytes[string.start + 1 + index] != literal.utf8Start[index] { return false }
    return true
  }

  /// The text of a string the reader has checked (its escapes are valid); a lone surrogate becomes U+FFFD.
  static func decode(
    _ string: Text, in bytes: UnsafeRawBufferPointer, limit: Int = TraceEventReader.keptStringLimit
  ) -> String {
    let contentEnd = string.end - 1
    guard string.escaped else {
      let slice = bytes[(string.start + 1)..<min(contentEnd, string.start + 1 + limit)]
      return String(decoding: UnsafeRawBufferPointer(rebasing: slice), as: UTF8.self)
    }
    var kept: [UInt8] = []
    var position = string.start + 1
    while position < contentEnd, kept.count < limit {
      let byte = bytes[position]
      position += 1
      guard byte == UInt8(ascii: "\\") else {
        kept.append(byte)
        continue
      }
      let escape = bytes[position]
      position += 1
      switch escape {
      case UInt8(ascii: "b"): kept.append(0x08)
      case UInt8(ascii: "f"): kept.append(0x0C)
      case UInt8(ascii: "n"): kept.append(0x0A)
      case UInt8(ascii: "r"): kept.append(0x0D)
      case UInt8(ascii: "t"): kept.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = hex(bytes, at: position)
        position += 4
        if (0xD800..<0xDC00).contains(scalar), position + 6 <= contentEnd, bytes[position] == UInt8(ascii: "\\"),
          bytes[position + 1] == UInt8(ascii: "u")
        {
          let low = hex(bytes, at: position + 2)
          if (0xDC00..<0xE000).contains(low) {
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            position += 6
          }
        }
        kept += Array(String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
      default: kept.append(escape)  // \" \\ \/
      }
    }
    return String(decoding: kept, as: UTF8.self)
  }

  /// The value of four hex digits the reader has checked.
  private static func hex(_ bytes: UnsafeRawBufferPointer, at position: Int) -> UInt32 {
    (position..<(position + 4)).reduce(0) { value, index in
      value << 4 | UInt32(Character(Unicode.Scalar(bytes[index])).hexDigitValue ?? 0)
    }
  }
}

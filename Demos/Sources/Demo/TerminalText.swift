/// Text from outside the host (an action log, a capture script, a server) made safe to print: control characters
/// escaped, so a terminal never runs an escape sequence from a file; long text shortened, with its length shown, so
/// one huge field never becomes megabytes of output.
///
/// ```swift
/// TerminalText.escaped("red\u{1B}[31m")                     // "red\u{1B}[31m" with the escape spelled out
/// TerminalText.quoted(String(repeating: "a", count: 5_000)) // "\"aaaa…\" (5000 characters)"
/// TerminalText.line(hugeMessage)                           // its start and end, "…(N more characters)…" between
/// ```
enum TerminalText {
  /// How many characters ``quoted(_:limit:)`` keeps.
  static let quoteLimit = 80
  /// How long a line ``line(_:limit:)`` prints in full.
  static let lineLimit = 1_000

  /// `text` with every control character (C0, DEL, C1, and line and paragraph separators) written as an escape:
  /// `\n`, `\r`, `\t`, `\u{1B}`…; everything else unchanged.
  static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      guard isControl(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      }
    }
    return result
  }

  /// `text` in quotes, escaped, its first `limit` characters only when longer, then its length:
  /// `"abc"`, or `"abcd…" (5000 characters)`.
  static func quoted(_ text: String, limit: Int = quoteLimit) -> String {
    let count = text.count
    guard count > limit else { return "\"\(escaped(text))\"" }
    return "\"\(escaped(String(text.prefix(limit))))…\" (\(count) characters)"
  }

  /// A line of output made from outside text: escaped (a multi-line text becomes one line) and, when longer than
  /// `limit` characters, its beginning and end with `…(N more characters)…` between them.
  static func line(_ text: String, limit: Int = lineLimit) -> String {
    let count = text.count
    guard count > limit else { return escaped(text) }
    let head = limit * 3 / 4
    let tail = limit - head
    let omitted = count - head - tail
    return escaped(String(text.prefix(head))) + "…(\(omitted) more characters)…" + escaped(String(text.suffix(tail)))
  }

  /// A block of lines (a state dump or diff): each line through ``line(_:limit:)``, the line breaks kept.
  static func lines(_ text: String, limit: Int = lineLimit) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { line(String($0), limit: limit) }
      .joined(separator: "\n")
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
    default: false
    }
  }
}

import Foundation

/// Reads `<Code>` and `<Message>` from an S3 error body (`<Error><Code>AccessDenied</Code>…</Error>`).
///
/// Tolerant on purpose: no XML parser, no validation; anything unexpected yields nil rather than an error.
enum S3ErrorXML {
  /// The text of the first `<name>…</name>` element in `body`, with the five predefined entities decoded, as
  /// `redactor`'s server text (secrets redacted, printable, at most 300 characters); nil when absent or empty.
  static func field(_ name: String, in body: Data, redactor: SecretRedactor = .none) -> String? {
    let text = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
    guard let open = text.range(of: "<\(name)>"),
      let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex)
    else { return nil }
    var value = String(text[open.upperBound..<close.lowerBound])
    if value.hasPrefix("<![CDATA["), value.hasSuffix("]]>") {
      value = String(value.dropFirst(9).dropLast(3))
    } else {
      for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
        value = value.replacingOccurrences(of: entity, with: character)
      }
    }
    value = redactor.serverText(value.trimmingCharacters(in: .whitespacesAndNewlines))
    return value.isEmpty ? nil : value
  }
}

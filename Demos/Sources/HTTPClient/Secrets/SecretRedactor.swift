import Foundation

/// Makes text that came from a server safe to show, keep in state and log: every known secret (a bearer token, an
/// API key) is replaced by `<redacted>` — also percent-encoded or with JSON's `\/` — after control characters are
/// removed (so none can hide a secret) and before the text is cut to length (so no part of a secret survives).
///
/// Only secrets of at least ``minimumLength`` characters are redacted. A shorter value (`--token x`, a test key like
/// `t0ken`) cannot be told apart from the ordinary words, markup and numbers around it: replacing every `x` turned a
/// server's `<img src=x …>` into `<img src=<redacted> …>` and garbled the very message a user needs to read the
/// failure. Such a value is not refused — a server may accept it — but it is guessable in a few tries, so it is left
/// in the text rather than destroying it.
///
/// Every live client passes whatever a server says — error messages, S3 error fields, redirect targets — through
/// one of these before it reaches an error, a state, the action log or the terminal.
///
/// ```swift
/// let redactor = SecretRedactor(secrets: ["s3cr3t-token"])
/// redactor.serverText("invalid token s3cr3t-token\u{1B}[2J")   // "invalid token <redacted>[2J"
/// SecretRedactor(secrets: ["x"]).serverText("<img src=x>")      // "<img src=x>" (too short to be a secret)
/// ```
public struct SecretRedactor: Sendable, Hashable {
  /// The fewest characters a secret needs to be redacted.
  public static let minimumLength = 8

  /// The forms of every secret that are replaced, longest first.
  private let forms: [String]

  /// A redactor for `secrets`; values shorter than ``minimumLength`` are ignored.
  public init(secrets: [String]) {
    var forms: Set<String> = []
    for secret in secrets where secret.count >= Self.minimumLength {
      forms.insert(secret)
      if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) { forms.insert(encoded) }
      if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) { forms.insert(encoded) }
      forms.insert(secret.replacingOccurrences(of: "/", with: "\\/"))
    }
    self.forms = forms.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
  }

  /// A redactor that changes nothing.
  public static let none = SecretRedactor(secrets: [])

  /// `text` with every occurrence of a secret replaced by `<redacted>`.
  public func redact(_ text: String) -> String {
    forms.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
  }

  /// `text` from a server as it may be shown: control characters removed, secrets redacted, whitespace trimmed, at
  /// most `limit` characters (then ending in `…`).
  public func serverText(_ text: String, limit: Int = 300) -> String {
    let printable = String(
      String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    let redacted = redact(printable).trimmingCharacters(in: .whitespaces)
    return redacted.count > limit ? String(redacted.prefix(limit)) + "…" : redacted
  }
}

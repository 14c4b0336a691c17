/// A bearer token for the app's API server that never shows itself: printing, dumping, logging or mirroring it
/// gives `<redacted>`.
///
/// ```swift
/// let token = BearerToken(ProcessInfo.processInfo.environment["UPLOAD_API_TOKEN"] ?? "")
/// print(token)   // <redacted>
/// ```
public struct BearerToken: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The secret itself; only the HTTP layer reads it, to build the `Authorization` header.
  let secret: String

  /// Wraps the secret `value`.
  public init(_ value: String) { self.secret = value }

  /// Whether there is no token at all.
  public var isEmpty: Bool { secret.isEmpty }

  /// Always `<redacted>`.
  public var description: String { "<redacted>" }
  /// Always `<redacted>`.
  public var debugDescription: String { "<redacted>" }
  /// No children, so `dump` and reflection show nothing of the secret.
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

  /// The `Authorization` header value.
  package var authorizationHeader: String { "Bearer \(secret)" }

  /// Removes the token from anything a server says (a server may echo it in an error).
  package var redactor: SecretRedactor { SecretRedactor(secrets: [secret]) }
}

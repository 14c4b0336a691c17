import Unidirectional

/// A bearer token for the app's API server that never shows itself: printing, dumping, logging or mirroring it
/// gives `<redacted>`.
///
/// ```swift
/// let token = BearerToken(ProcessInfo.processInfo.environment["UPLOAD_API_TOKEN"] ?? "")
/// print(token)   // <redacted>
/// ```
public struct BearerToken: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable, CustomDumpStringConvertible
{
  /// The secret itself; only the HTTP layer reads it, to build the `Authorization` header.
  let secret: String

  /// Wraps the secret `value`.
  public init(_ value: String) { self.secret = value }

  /// Whether there is no token at all.
  public var isEmpty: Bool { secret.isEmpty }

  public var description: String { "<redacted>" }
  public var debugDescription: String { "<redacted>" }
  public var customDumpDescription: String { "<redacted>" }
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

  /// The `Authorization` header value.
  var authorizationHeader: String { "Bearer \(secret)" }
}

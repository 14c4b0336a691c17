import Foundation

/// A response as the transport received it: the final status and headers, the body (bounded), any 1xx
/// responses before it, the URL that answered (after redirects), and how much of the request body was sent.
///
/// ```swift
/// let response = try await transport.send(request, redirects: .sameOrigin)
/// guard (200..<300).contains(response.status) else { … }
/// response.header("ETag")
/// ```
public struct HTTPResponse: Sendable {
  /// A 1xx interim response (e.g. `104 Upload Resumption Supported` with a `Location`).
  public struct Informational: Sendable, Equatable {
    /// `100`–`199`.
    public let status: Int
    /// Its header fields.
    public let headers: HTTPHeaderFields
  }

  /// The final status.
  public let status: Int
  /// The final header fields.
  public let headers: HTTPHeaderFields
  /// The body (bounded by the engine).
  public let body: Data
  /// The URL of the request that got this response.
  public let url: URL
  /// The 1xx responses before the final one, in order.
  public let informational: [Informational]
  /// Bytes of the request body written to the connection, when the transport can tell (nil for URLSession).
  public let bodyBytesSent: Int64?
  /// False when the server answered before the whole request body was sent (and the rest was not sent).
  public let receivedWholeBody: Bool

  /// The value of header `name` (case-insensitive).
  public func header(_ name: String) -> String? { headers[name] }
}

import Foundation

/// One HTTP request as the upload transport sends it: method, URL, headers in order, and a body made of byte
/// strings and file ranges, so a multipart form or a part of a file is sent straight from disk without staging.
///
/// ```swift
/// var request = HTTPRequest(method: "PUT", url: presignedURL)
/// request.setHeader("Content-Type", "image/png")
/// request.body = try .file(fileURL)   // read from disk as it is sent
/// ```
public struct HTTPRequest: Sendable {
  /// `GET`, `PUT`, `POST`, …
  public var method: String
  /// Where the request goes.
  public var url: URL
  /// Header fields in the order they are sent; `Host`, `Content-Length`, `Connection` and `User-Agent` are set by
  /// the transport.
  public var headers: [(name: String, value: String)]
  /// What is sent after the head.
  public var body: HTTPRequestBody
  /// Through URLSession on Linux, send a body of one file range as a stream read with `pread`
  /// (`Transfer-Encoding: chunked`) instead of through FoundationNetworking's file body source, which traps when the
  /// connection drops while it is paused (a resumable upload's everyday case); a replayed body then fails.
  var streamsBody = false

  /// A request with `headers` in order and `body`.
  public init(
    method: String, url: URL, headers: [(name: String, value: String)] = [], body: HTTPRequestBody = .empty
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }

  /// The value of header `name` (case-insensitive), if set.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// Sets header `name` to `value`, replacing any earlier value.
  public mutating func setHeader(_ name: String, _ value: String) {
    removeHeader(name)
    headers.append((name, value))
  }

  /// Removes header `name` (case-insensitive).
  public mutating func removeHeader(_ name: String) {
    headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
  }
}

import Foundation

@testable import HTTPClient

/// How the test support code asks its own servers things (events, stored objects, counters): one request through
/// the library's socket engine on Linux (one connection per request, nothing pooled), so a helper's request never
/// shares a URLSession, its connections or its delegate queue with the client a test is checking.
///
/// ```swift
/// let (status, body) = try await LoopbackHTTP.send("GET", stack.apiURL.appendingPathComponent("test-hooks/events"))
/// ```
enum LoopbackHTTP {
  #if canImport(Glibc)
    // Stored objects are downloaded whole to compare them: up to 1 GiB in memory.
    private static let engine = SocketHTTPEngine(idleTimeout: 30, totalTimeout: 120, maxResponseBytes: 1 << 30)
  #else
    private static let transport = HTTPTransport(HTTPTransport.Configuration(requestTimeout: 30, resourceTimeout: 120))
  #endif

  /// Sends one request (no redirect followed) and returns the status and the body.
  static func send(
    _ method: String, _ url: URL, headers: [(name: String, value: String)] = [], body: Data = Data()
  ) async throws -> (status: Int, body: Data) {
    let request = HTTPRequest(
      method: method, url: url, headers: headers, body: body.isEmpty ? .empty : .bytes(body))
    #if canImport(Glibc)
      let response = try await engine.send(request, progress: nil, informational: nil)
    #else
      let response = try await transport.send(request, redirects: .never)
    #endif
    return (response.status, response.body)
  }
}

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private enum URLSessionKey: DependencyKey {
  static var liveValue: URLSession { .shared }
  static var testValue: URLSession {
    reportIssue(
      """
      @Dependency(\\.urlSession) was used without an override. Give the test a session of its own (against a \
      server the test starts on 127.0.0.1), or better, inject the client that uses it.
      """)
    return .refusingEveryRequest
  }
}

extension DependencyValues {
  /// The URL session live clients make requests with: `URLSession.shared` live and in previews. In tests, reading
  /// it without an override fails the test, and the session it returns fails every request without touching the
  /// network.
  ///
  /// ```swift
  /// @Dependency(\.urlSession) var session
  /// let (data, _) = try await session.data(from: url)
  /// ```
  public var urlSession: URLSession {
    get { self[URLSessionKey.self] }
    set { self[URLSessionKey.self] = newValue }
  }
}

/// The error of every request made through the test value of `\.urlSession`.
public struct UnimplementedURLSessionError: Error, CustomStringConvertible {
  public var description: String { "@Dependency(\\.urlSession) has no test value: the request was not sent" }
}

extension URLSession {
  /// An ephemeral session whose every request fails with ``UnimplementedURLSessionError`` before any I/O.
  static var refusingEveryRequest: URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [RefusingURLProtocol.self]
    return URLSession(configuration: configuration)
  }
}

/// Fails every request it is given, without I/O.
private final class RefusingURLProtocol: URLProtocol {
  override class func canInit(with request: URLRequest) -> Bool { true }
  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
  override func startLoading() { client?.urlProtocol(self, didFailWithError: UnimplementedURLSessionError()) }
  override func stopLoading() {}
}

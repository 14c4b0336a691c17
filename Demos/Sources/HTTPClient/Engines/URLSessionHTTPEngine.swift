import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends ``HTTPRequest``s through ephemeral URLSessions (no cookies, no cache, no stored credentials): the
/// engine for `https`, for hosts reached through a proxy, on Apple platforms, and wherever a client asks for it.
///
/// URLSession never follows a redirect here — every delegate refuses them, so the 3xx comes back as the response and
/// ``HTTPTransport`` decides (FoundationNetworking would re-send `Authorization` to any host and drop the body). A
/// body that is not one whole file (a multipart form, a range of a file) is staged to a temporary file first, because
/// URLSession on Linux can only stream a body from a file; a request that ``HTTPRequest/streamsBody`` sends
/// its one file range as a stream instead.
///
/// On Linux (FoundationNetworking of Swift 6.3.1) a request that waits for its response busy-loops about 75% of a
/// core: the write-readiness source armed while connecting is never cancelled when libcurl only wants to read, so it
/// fires for as long as the server thinks (one more reason plain `http` goes through ``SocketHTTPEngine``).
///
/// ```swift
/// let engine = URLSessionHTTPEngine(requestTimeout: 60, resourceTimeout: 3600, connections: .pooled(maxPerHost: 4),
///   stagingDirectory: FileManager.default.temporaryDirectory)
/// let response = try await engine.send(request, progress: nil, informational: nil)
/// ```
final class URLSessionHTTPEngine: Sendable {
  /// The session every request shares, or nil when each request gets a session (and a connection) of its own.
  private let pooledSession: URLSession?
  private let configuration: URLSessionConfiguration
  private let requestTimeout: TimeInterval
  private let stagingDirectory: URL
  /// Where every session's delegate callbacks run. Static because `OperationQueue.underlyingQueue` does not retain
  /// it and a session can outlive its engine while its last tasks finish.
  private static let delegateDispatchQueue = DispatchQueue(label: "Unidirectional.URLSessionHTTPEngine")

  init(
    requestTimeout: TimeInterval, resourceTimeout: TimeInterval, connections: HTTPTransport.Connections,
    stagingDirectory: URL
  ) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = requestTimeout
    configuration.timeoutIntervalForResource = resourceTimeout
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    switch connections {
    case let .pooled(maxPerHost):
      configuration.httpMaximumConnectionsPerHost = max(1, maxPerHost)
      self.pooledSession = Self.session(configuration)
    case .freshPerRequest:
      configuration.httpMaximumConnectionsPerHost = 1
      self.pooledSession = nil
    }
    self.configuration = configuration
    self.requestTimeout = requestTimeout
    self.stagingDirectory = stagingDirectory
  }

  deinit {
    pooledSession?.finishTasksAndInvalidate()
  }

  /// A session whose delegate refuses redirects, its callbacks on one serial queue.
  private static func session(_ configuration: URLSessionConfiguration) -> URLSession {
    // Progress callbacks go through the delegate queue, one operation per ~48 KB sent. An OperationQueue on a
    // serial dispatch queue measured ~15% faster for a 200 MB upload than the default queue on Linux.
    let delegateQueue = OperationQueue()
    delegateQueue.name = "Unidirectional.URLSessionHTTPEngine"
    delegateQueue.maxConcurrentOperationCount = 1
    delegateQueue.underlyingQueue = delegateDispatchQueue
    return URLSession(configuration: configuration, delegate: URLSessionEventsDelegate(), delegateQueue: delegateQueue)
  }

  /// Sends `request`; `progress` gets the body bytes sent so far (URLSession's count, ~every 48 KB),
  /// `informational` each 1xx response as it arrives. Errors are URLSession's own (the transport words them).
  func send(
    _ request: HTTPRequest,
    progress: (@Sendable (Int64) -> Void)?,
    informational: (@Sendable (HTTPResponse.Informational) -> Void)?
  ) async throws -> HTTPResponse {
    // A request with a body never goes out on a pooled connection. When a reused connection turns out dead,
    // libcurl sends the request again on a new one and asks to rewind the body; FoundationNetworking can rewind
    // only a stream the delegate hands back, and for a file or data body it silently carries on from where the
    // dead connection left it: a body shorter than its Content-Length, and both sides wait for the request timeout
    // ("did not answer in time"; a server that closed a connection the client had just picked, likelier under
    // load). A fresh session's first request always opens a new connection.
    let pooled = request.body.length == 0 ? pooledSession : nil
    let session = pooled ?? Self.session(configuration)
    defer { if pooled == nil { session.finishTasksAndInvalidate() } }
    var urlRequest = URLRequest(
      url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
    urlRequest.httpMethod = request.method
    urlRequest.httpShouldHandleCookies = false
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    if request.body.length > 0 {
      // A server may answer (a redirect, a refusal) from the head alone and close without reading the body. With
      // body bytes in flight, libcurl's next write then meets the reset before it reads the answer: the request
      // failed as a lost connection (1 in 3 file uploads here), or waited for its timeout when the file source had
      // paused the transfer. Held back until the server asks for it, the body cannot race the answer (libcurl
      // sends it anyway after 1 s without a `100 Continue`).
      urlRequest.setValue("100-continue", forHTTPHeaderField: "Expect")
    }
    // A task delegate only when needed: it costs a large upload ~1.4× on Linux.
    let delegate =
      progress != nil || informational != nil || request.streamsBody
      ? URLSessionEventsDelegate(progress: progress, informational: informational, refusesReplays: request.streamsBody)
      : nil

    let (data, response) = try await exchange(urlRequest, body: request, in: session, delegate: delegate)
    guard let http = response as? HTTPURLResponse else {
      throw HTTPError.invalidResponse("not an HTTP response")
    }
    return HTTPResponse(
      status: http.statusCode, headers: HTTPHeaderFields(http), body: data, url: request.url, informational: [],
      bodyBytesSent: nil, receivedWholeBody: true)
  }

  /// Sends `urlRequest` with `request`'s body by the cheapest means URLSession has for it.
  private func exchange(
    _ urlRequest: URLRequest, body request: HTTPRequest, in session: URLSession,
    delegate: URLSessionEventsDelegate?
  ) async throws -> (Data, URLResponse) {
    var urlRequest = urlRequest
    let body = request.body
    if body.length == 0 {
      return try await session.data(for: urlRequest, delegate: delegate)
    }
    #if canImport(FoundationNetworking)
      // Not `upload(fromFile:)`: its file body source un-pauses the transfer from another queue, and when the
      // connection drops meanwhile, FoundationNetworking traps (`try!` on libcurl's error 43, seen here with Swift
      // 6.3.1). An interrupted upload is the resumable client's everyday case.
      if request.streamsBody, body.parts.count == 1, case let .file(url, offset, length) = body.parts[0] {
        urlRequest.httpBodyStream = try FileRangeInputStream(url: url, offset: offset, length: length)
        return try await session.data(for: urlRequest, delegate: delegate)
      }
    #endif
    if body.parts.count == 1, case let .bytes(bytes) = body.parts[0] {
      return try await session.upload(for: urlRequest, from: bytes, delegate: delegate)
    }
    if let file = body.wholeFile {
      return try await session.upload(for: urlRequest, fromFile: file, delegate: delegate)
    }
    let staged = stagingDirectory.appendingPathComponent("request-\(UUID().uuidString.lowercased()).body")
    defer { try? FileManager.default.removeItem(at: staged) }
    try body.write(to: staged)
    try Task.checkCancellation()
    return try await session.upload(for: urlRequest, fromFile: staged, delegate: delegate)
  }
}

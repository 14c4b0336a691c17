import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends ``HTTPTransferRequest``s through one ephemeral URLSession (no cookies, no cache, no stored credentials):
/// the engine for `https` and for hosts reached through a proxy.
///
/// URLSession never follows a redirect here — its delegate refuses every one, so the 3xx comes back as the response
/// and ``HTTPTransport`` decides (FoundationNetworking would re-send `Authorization` to any host and drop the
/// body). A body that is not one whole file (a multipart form, a range of a file) is staged to a temporary file first,
/// because URLSession on Linux can only stream a body from a file.
///
/// On Linux (FoundationNetworking of Swift 6.3.1) a request that waits for its response busy-loops about 75% of a
/// core: the write-readiness source armed while connecting is never cancelled when libcurl only wants to read, so it
/// fires for as long as the server thinks (one more reason plain `http` goes through ``SocketHTTPEngine``).
///
/// ```swift
/// let engine = URLSessionHTTPEngine(requestTimeout: 60, resourceTimeout: 3600, maxConnectionsPerHost: 4,
///   stagingDirectory: FileManager.default.temporaryDirectory)
/// let response = try await engine.send(request, progress: nil)
/// ```
final class URLSessionHTTPEngine: Sendable {
  private let session: URLSession
  private let requestTimeout: TimeInterval
  private let stagingDirectory: URL
  /// Where every session's delegate callbacks run. Static because `OperationQueue.underlyingQueue` does not retain
  /// it and a session can outlive its engine while its last tasks finish.
  private static let delegateDispatchQueue = DispatchQueue(label: "Unidirectional.URLSessionHTTPEngine")

  init(
    requestTimeout: TimeInterval, resourceTimeout: TimeInterval, maxConnectionsPerHost: Int, stagingDirectory: URL
  ) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = requestTimeout
    configuration.timeoutIntervalForResource = resourceTimeout
    configuration.httpMaximumConnectionsPerHost = max(1, maxConnectionsPerHost)
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    // Progress callbacks go through the delegate queue, one operation per ~48 KB sent. An OperationQueue on a
    // serial dispatch queue measured ~15% faster for a 200 MB upload than the default queue on Linux.
    let delegateQueue = OperationQueue()
    delegateQueue.name = "Unidirectional.URLSessionHTTPEngine"
    delegateQueue.maxConcurrentOperationCount = 1
    delegateQueue.underlyingQueue = Self.delegateDispatchQueue
    // The session delegate only refuses redirects: without a task delegate, URLSession on Linux sends no per-chunk
    // progress operations at all (a task delegate makes a large upload ~1.4× slower).
    self.session = URLSession(
      configuration: configuration, delegate: RedirectDecidingDelegate { _, _ in nil }, delegateQueue: delegateQueue)
    self.requestTimeout = requestTimeout
    self.stagingDirectory = stagingDirectory
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// Sends `request`; `progress` gets the body bytes sent so far (URLSession's count, ~every 48 KB).
  func send(
    _ request: HTTPTransferRequest,
    progress: (@Sendable (Int64) -> Void)?
  ) async throws -> HTTPTransferResponse {
    var urlRequest = URLRequest(
      url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
    urlRequest.httpMethod = request.method
    urlRequest.httpShouldHandleCookies = false
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    // A task delegate (asked before the session's) that reports progress and refuses redirects too.
    let delegate = progress.map { progress in RedirectDecidingDelegate(progress: progress) { _, _ in nil } }
    progress?(0)

    let data: Data
    let response: URLResponse
    do {
      if request.body.length == 0 {
        (data, response) = try await session.data(for: urlRequest, delegate: delegate)
      } else if request.body.parts.count == 1, case let .bytes(bytes) = request.body.parts[0] {
        (data, response) = try await session.upload(for: urlRequest, from: bytes, delegate: delegate)
      } else if let file = request.body.wholeFile {
        (data, response) = try await session.upload(for: urlRequest, fromFile: file, delegate: delegate)
      } else {
        let staged = stagingDirectory.appendingPathComponent("request-\(UUID().uuidString.lowercased()).body")
        defer { try? FileManager.default.removeItem(at: staged) }
        try request.body.write(to: staged)
        try Task.checkCancellation()
        (data, response) = try await session.upload(for: urlRequest, fromFile: staged, delegate: delegate)
      }
    } catch let error as ImageUploadError {
      throw error
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw ImageUploadError(error, host: HTTPTransport.hostDescription(request.url))
    }
    guard let http = response as? HTTPURLResponse else {
      throw ImageUploadError.invalidResponse("not an HTTP response")
    }
    var fields: [(name: String, value: String)] = []
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String { fields.append((name, value)) }
    }
    return HTTPTransferResponse(
      status: http.statusCode, headers: HTTPHeaderFields(fields), body: data, url: request.url, informational: [],
      bodyBytesSent: nil, receivedWholeBody: true)
  }
}

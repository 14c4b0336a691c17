import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP side of one resumable upload: a fresh connection for every request, informational responses (`104`)
/// passed on as they arrive, bytes sent counted, redirects refused (the 3xx comes back as the response),
/// `User-Agent: Unidirectional/<version>`, and URL errors turned into ``ImageUploadError``s.
///
/// Why a new ephemeral URLSession per request: libcurl sends a request again by itself when a *reused*
/// connection dies under it, and FoundationNetworking then goes on reading the half-consumed body stream: an
/// append with a stale `Upload-Offset` and the wrong bytes, which Apple's server answers with a 409 that destroys
/// the upload (seen here). A `Connection: close` request header does not stop libcurl from reusing the
/// connection. A fresh connection per request also avoids Apple's server never answering a request that follows
/// a completed upload on the same connection.
final class ResumableUploadTransport: Sendable {
  /// A request's body.
  enum Body: Sendable {
    case empty
    /// Bytes `offset ..< offset + length` of the file at `url` (which has `fileSize` bytes), streamed: on Linux
    /// with `Transfer-Encoding: chunked`, never through FoundationNetworking's file body source (see below).
    case fileRange(URL, offset: Int64, length: Int64, fileSize: Int64)
    /// The whole file with a `Content-Length`, for servers that need one (a plain upload).
    case wholeFile(URL)

    /// How many bytes the body has, when that is known without reading the file.
    var length: Int64? {
      switch self {
      case .empty: 0
      case let .fileRange(_, _, length, _): length
      case .wholeFile: nil
      }
    }
  }

  private let configuration: URLSessionConfiguration
  private let requestTimeout: TimeInterval
  private static let delegateDispatchQueue = DispatchQueue(label: "Unidirectional.ResumableUploadTransport")

  init(requestTimeout: TimeInterval, resourceTimeout: TimeInterval) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = requestTimeout
    configuration.timeoutIntervalForResource = resourceTimeout
    configuration.httpMaximumConnectionsPerHost = 1
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    self.configuration = configuration
    self.requestTimeout = requestTimeout
  }

  /// A session for one request, its delegate callbacks on a serial queue.
  private func makeSession() -> URLSession {
    let delegateQueue = OperationQueue()
    delegateQueue.maxConcurrentOperationCount = 1
    delegateQueue.underlyingQueue = Self.delegateDispatchQueue
    return URLSession(configuration: configuration, delegate: nil, delegateQueue: delegateQueue)
  }

  /// A request to `url` with the transport's timeout, no cookies and no cache.
  func request(_ method: String, _ url: URL) -> URLRequest {
    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
    request.httpMethod = method
    request.httpShouldHandleCookies = false
    // Not libcurl's default, which names the host's process and curl's version to every server.
    request.setValue(UserAgent.value, forHTTPHeaderField: "User-Agent")
    return request
  }

  /// Sends `request` with `body`; `informational` gets each 1xx response, `sent` the request's body bytes sent so
  /// far. Returns the final response (a refused redirect's 3xx included).
  func send(
    _ request: URLRequest,
    body: Body,
    informational: (@Sendable (HTTPURLResponse) -> Void)? = nil,
    sent: (@Sendable (Int64) -> Void)? = nil
  ) async throws -> (Data, HTTPURLResponse) {
    let delegate = TaskDelegate(informational: informational, sent: sent)
    let session = makeSession()
    defer { session.finishTasksAndInvalidate() }
    var request = request
    var temporaryFile: URL?
    defer { temporaryFile.map { try? FileManager.default.removeItem(at: $0) } }
    do {
      let data: Data
      let response: URLResponse
      switch body {
      case .empty:
        (data, response) = try await session.data(for: request, delegate: delegate)
      case let .wholeFile(url):
        (data, response) = try await session.upload(for: request, fromFile: url, delegate: delegate)
      case let .fileRange(url, offset, length, fileSize):
        #if canImport(FoundationNetworking)
          // Not `upload(fromFile:)`: its file body source un-pauses the transfer from another queue, and when the
          // connection drops meanwhile, FoundationNetworking traps (`try!` on libcurl's error 43, seen here with
          // Swift 6.3.1). An interrupted upload is this client's everyday case.
          _ = fileSize
          request.httpBodyStream = try FileRangeInputStream(url: url, offset: offset, length: length)
          (data, response) = try await session.data(for: request, delegate: delegate)
        #else
          if offset == 0 && length == fileSize {
            (data, response) = try await session.upload(for: request, fromFile: url, delegate: delegate)
          } else {
            // Darwin's URLSession does not take InputStream subclasses reliably: send a copy of the range.
            let copy = try Self.copy(url, offset: offset, length: length)
            temporaryFile = copy
            (data, response) = try await session.upload(for: request, fromFile: copy, delegate: delegate)
          }
        #endif
      }
      guard let http = response as? HTTPURLResponse else {
        throw ImageUploadError.invalidResponse("not an HTTP response")
      }
      if (300..<400).contains(http.statusCode), let location = http.value(forHTTPHeaderField: "Location") {
        // The draft's requests go where the server said (the upload resource); a redirect would re-send a body
        // and credentials elsewhere.
        throw ImageUploadError.redirectRefused(
          status: http.statusCode, from: HTTPTransport.hostDescription(request.url),
          to: HTTPTransport.hostDescription(URL(string: location, relativeTo: request.url)),
          reason: "resumable upload requests are not redirected")
      }
      return (data, http)
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw ImageUploadError(error, host: HTTPTransport.hostDescription(request.url))
    }
  }

  #if !canImport(FoundationNetworking)
    private static func copy(_ url: URL, offset: Int64, length: Int64) throws -> URL {
      let destination = FileManager.default.temporaryDirectory
        .appendingPathComponent("resumable-\(UUID().uuidString).part")
      guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
        throw ImageUploadError.invalidRequest("cannot create a temporary file for the request body")
      }
      let input = try FileHandle(forReadingFrom: url)
      defer { try? input.close() }
      let output = try FileHandle(forWritingTo: destination)
      defer { try? output.close() }
      try input.seek(toOffset: UInt64(offset))
      var remaining = length
      while remaining > 0 {
        guard let chunk = try input.read(upToCount: Int(min(remaining, 1 << 20))), !chunk.isEmpty else { break }
        try output.write(contentsOf: chunk)
        remaining -= Int64(chunk.count)
      }
      return destination
    }
  #endif
}

/// One request's delegate: informational responses, bytes sent, redirects refused.
private final class TaskDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: NSObject is not Sendable; the stored properties are immutable @Sendable closures.
  private let informational: (@Sendable (HTTPURLResponse) -> Void)?
  private let sent: (@Sendable (Int64) -> Void)?

  init(informational: (@Sendable (HTTPURLResponse) -> Void)?, sent: (@Sendable (Int64) -> Void)?) {
    self.informational = informational
    self.sent = sent
  }

  // On Linux a 1xx arrives here as an extra response before the final one.
  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    if let http = response as? HTTPURLResponse, (100..<200).contains(http.statusCode) {
      informational?(http)
    }
    completionHandler(.allow)
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didSendBodyData bytesSent: Int64,
    totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    sent?(totalBytesSent)
  }

  #if canImport(FoundationNetworking)
    // When a reused connection dies mid-request, libcurl sends the request again on a new one and asks for the
    // body anew. Without an answer FoundationNetworking would go on reading the old, half-consumed stream: an
    // append with a stale `Upload-Offset` and the wrong bytes. A fresh range would be right but can meet a
    // server that has moved on (Apple's destroys the upload on the 409). So the replay fails, and the uploader
    // asks the server for its offset, as after any interruption.
    func urlSession(
      _ session: URLSession,
      task: URLSessionTask,
      needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
      completionHandler(FailingInputStream())
    }
  #endif

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}

#if canImport(FoundationNetworking)
  /// A body stream whose first read fails: the transfer stops instead of sending something the uploader did not
  /// choose.
  private final class FailingInputStream: InputStream {
    init() { super.init(data: Data()) }
    override func open() {}
    override func close() {}
    override var streamStatus: Stream.Status { .error }
    override var hasBytesAvailable: Bool { true }
    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int { -1 }
  }
#endif

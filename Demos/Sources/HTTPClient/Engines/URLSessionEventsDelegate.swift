import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The URLSession delegate of ``URLSessionHTTPEngine``. As a session's delegate it refuses every redirect, so the
/// 3xx comes back as the response and ``HTTPTransport`` decides by the request's ``RedirectPolicy`` (left alone,
/// FoundationNetworking follows every redirect, re-sending `Authorization` to any host and dropping the body). As one
/// task's delegate it also reports the body bytes sent so far, each informational (1xx) response as it arrives, and
/// refuses a replayed streamed body. A task gets one only when it needs it: without a task delegate, URLSession on
/// Linux sends no per-chunk progress operations at all (a task delegate makes a large upload ~1.4× slower).
///
/// Final, and one class for all of it: a subclass's `didSendBodyData` would never be called, because the protocol's
/// default implementation is what a superclass without it conforms with.
///
/// ```swift
/// let session = URLSession(configuration: .ephemeral, delegate: URLSessionEventsDelegate(), delegateQueue: nil)
/// let events = URLSessionEventsDelegate(progress: { sent in print(sent) })
/// let (data, response) = try await session.upload(for: request, fromFile: file, delegate: events)
/// ```
final class URLSessionEventsDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: NSObject is not Sendable; the stored properties are immutable (and the closures @Sendable).
  private let progress: (@Sendable (Int64) -> Void)?
  private let informational: (@Sendable (HTTPResponse.Informational) -> Void)?
  private let refusesReplays: Bool

  /// - Parameter refusesReplays: Fail a request whose streamed body libcurl asks for again (see below).
  init(
    progress: (@Sendable (Int64) -> Void)? = nil,
    informational: (@Sendable (HTTPResponse.Informational) -> Void)? = nil,
    refusesReplays: Bool = false
  ) {
    self.progress = progress
    self.informational = informational
    self.refusesReplays = refusesReplays
  }

  // On Linux a 1xx arrives here as an extra response before the final one.
  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    if let http = response as? HTTPURLResponse, (100..<200).contains(http.statusCode) {
      informational?(HTTPResponse.Informational(status: http.statusCode, headers: HTTPHeaderFields(http)))
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
    progress?(totalBytesSent)
  }

  #if canImport(FoundationNetworking)
    // When a reused connection dies mid-request, libcurl sends the request again on a new one and asks for the
    // body anew. Without an answer FoundationNetworking would go on reading the old, half-consumed stream: an
    // append with a stale `Upload-Offset` and the wrong bytes. A fresh range would be right but can meet a
    // server that has moved on (Apple's destroys the upload on the 409). So the replay fails, and the resumable
    // uploader asks the server for its offset, as after any interruption.
    func urlSession(
      _ session: URLSession,
      task: URLSessionTask,
      needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
      completionHandler(refusesReplays ? FailingInputStream() : nil)
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

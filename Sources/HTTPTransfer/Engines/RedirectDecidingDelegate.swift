import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A URLSession delegate that decides every redirect itself: `decide` gets the task and the request URLSession would
/// send next, and returns it to follow or nil to deliver the 3xx as the response. Left alone, FoundationNetworking
/// follows every redirect, re-sending `Authorization` to any host and dropping the body. As a task's delegate it
/// can also forward the bytes sent (`didSendBodyData`) to `progress`.
///
/// Final, and one class for both jobs: a subclass's `didSendBodyData` would never be called, because the protocol's
/// default implementation is what a superclass without it conforms with.
///
/// ```swift
/// let refuseAll = RedirectDecidingDelegate { _, _ in nil }
/// let session = URLSession(configuration: .ephemeral, delegate: refuseAll, delegateQueue: nil)
/// ```
package final class RedirectDecidingDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  // @unchecked: NSObject is not Sendable; the stored properties are immutable @Sendable closures.
  private let progress: (@Sendable (Int64) -> Void)?
  private let decide: @Sendable (URLSessionTask, URLRequest) -> URLRequest?

  package init(
    progress: (@Sendable (Int64) -> Void)? = nil,
    decide: @escaping @Sendable (URLSessionTask, URLRequest) -> URLRequest?
  ) {
    self.progress = progress
    self.decide = decide
  }

  package func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didSendBodyData bytesSent: Int64,
    totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    progress?(totalBytesSent)
  }

  package func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(decide(task, request))
  }
}

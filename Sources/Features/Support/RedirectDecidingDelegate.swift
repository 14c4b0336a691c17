import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A URLSession delegate that decides every redirect itself: `decide` gets the task and the request URLSession would
/// send next, and returns it to follow or nil to deliver the 3xx as the response. Left alone, FoundationNetworking
/// follows every redirect, re-sending `Authorization` to any host and dropping the body.
///
/// ```swift
/// let refuseAll = RedirectDecidingDelegate { _, _ in nil }
/// let session = URLSession(configuration: .ephemeral, delegate: refuseAll, delegateQueue: nil)
/// ```
class RedirectDecidingDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  // @unchecked: NSObject is not Sendable; the only stored property is an immutable @Sendable closure.
  private let decide: @Sendable (URLSessionTask, URLRequest) -> URLRequest?

  init(decide: @escaping @Sendable (URLSessionTask, URLRequest) -> URLRequest?) {
    self.decide = decide
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(decide(task, request))
  }
}

extension AsyncStream {
  /// A stream that has already finished: it yields nothing. A stub for a dependency whose stream a test does not
  /// use (TCA's, from swift-concurrency-extras).
  ///
  /// ```swift
  /// $0.captureClient.events = { .finished }
  /// ```
  public static var finished: Self { Self { $0.finish() } }
}

extension AsyncThrowingStream where Failure == any Error {
  /// A stream that has already finished, with `error` if given: it yields nothing.
  ///
  /// ```swift
  /// $0.downloads.progress = { .finished(throwing: URLError(.notConnectedToInternet)) }
  /// ```
  public static func finished(throwing error: (any Error)? = nil) -> Self {
    Self { $0.finish(throwing: error) }
  }
}

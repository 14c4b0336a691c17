extension Task where Success == Never, Failure == Never {
  /// Suspends until the current task is cancelled, then throws `CancellationError`: the body of an effect that
  /// lives as long as its feature (until its `cancellable` id is cancelled or the feature goes away).
  ///
  /// Under a `TestStore` the wait counts as blocked, like a ``TestClock`` sleep: the store knows nothing will
  /// happen until the test acts, and never waits for it.
  ///
  /// ```swift
  /// case .onAppear:
  ///   return .run { _ in try await Task.never() }
  /// ```
  public static func never() async throws -> Never {
    let runtime = TestRuntime.current
    let waiter = NeverWaiter()
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        if waiter.wait(continuation) { runtime?.taskBlocked() }
      }
    } onCancel: {
      if waiter.cancel() { runtime?.taskUnblocked() }
    }
    throw Swift.CancellationError()
  }
}

/// The continuation of one `Task.never()`, resumed (with an error) only by cancellation, whichever comes first.
private final class NeverWaiter: Sendable {
  private enum State {
    case initial
    case waiting(UnsafeContinuation<Void, any Error>)
    case cancelled
  }

  private let state = LockIsolated(State.initial)

  /// Parks `continuation`; returns whether it is now waiting (false: already cancelled, resumed at once).
  func wait(_ continuation: UnsafeContinuation<Void, any Error>) -> Bool {
    let waiting = state.withLock { state -> Bool in
      if case .cancelled = state { return false }
      state = .waiting(continuation)
      return true
    }
    if !waiting { continuation.resume(throwing: Swift.CancellationError()) }
    return waiting
  }

  /// Resumes the parked continuation, if any; returns whether one was waiting.
  func cancel() -> Bool {
    let continuation = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
      defer { state = .cancelled }
      if case let .waiting(continuation) = state { return continuation }
      return nil
    }
    continuation?.resume(throwing: Swift.CancellationError())
    return continuation != nil
  }
}

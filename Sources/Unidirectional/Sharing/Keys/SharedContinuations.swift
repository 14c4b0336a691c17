/// How a ``SharedReaderKey`` hands back a loaded value: resume it exactly once.
///
/// ```swift
/// func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
///   guard let data = storage[key] else { return continuation.resumeReturningInitialValue() }
///   continuation.resume(with: Result { try decode(data) })
/// }
/// ```
public struct LoadContinuation<Value>: Sendable {
  private let box: ContinuationBox<Value?>

  /// A continuation that hands the result to `callback`.
  public init(_ description: String = "A shared key", callback: @escaping @Sendable (Result<Value?, any Error>) -> Void)
  {
    box = ContinuationBox(description: description, dropped: .success(nil), callback: callback)
  }

  /// Hands back `value`.
  public func resume(returning value: Value) { resume(with: .success(value)) }
  /// Fails the load with `error`; the shared value keeps what it had.
  public func resume(throwing error: any Error) { resume(with: .failure(error)) }
  /// There is no stored value: the shared value keeps its initial value.
  public func resumeReturningInitialValue() { resume(with: .success(nil)) }
  /// Hands back `result` (`nil`: keep the initial value).
  public func resume(with result: Result<Value?, any Error>) { box.resume(with: result) }
}

/// How a ``SharedKey`` reports that a save finished: resume it exactly once.
public struct SaveContinuation: Sendable {
  private let box: ContinuationBox<Void>

  /// A continuation that hands the result to `callback`.
  public init(_ description: String = "A shared key", callback: @escaping @Sendable (Result<Void, any Error>) -> Void) {
    box = ContinuationBox(description: description, dropped: .success(()), callback: callback)
  }

  /// The value was stored.
  public func resume() { resume(with: .success(())) }
  /// The value could not be stored.
  public func resume(throwing error: any Error) { resume(with: .failure(error)) }
  /// Reports `result`.
  public func resume(with result: Result<Void, any Error>) { box.resume(with: result) }
}

/// How a ``SharedReaderKey`` delivers values that changed outside the program's own writes.
///
/// ```swift
/// let task = Task { for await value in updates { subscriber.yield(value) } }
/// return SharedSubscription { task.cancel() }
/// ```
public struct SharedSubscriber<Value>: Sendable {
  let callback: @Sendable (Result<Value?, any Error>) -> Void
  let onLoading: (@Sendable (Bool) -> Void)?

  /// A subscriber that hands each result to `callback`, and each change of loading state to `onLoading`.
  public init(
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void,
    onLoading: (@Sendable (Bool) -> Void)? = nil
  ) {
    self.callback = callback
    self.onLoading = onLoading
  }

  /// The key started (or, with `false`, stopped) loading a new value: the shared value's `isLoading` says so until
  /// the next value or error is yielded.
  public func yieldLoading(_ isLoading: Bool = true) { onLoading?(isLoading) }

  /// The stored value is now `value`.
  public func yield(_ value: Value) { yield(with: .success(value)) }
  /// The stored value is gone: the shared value goes back to its initial value.
  public func yieldReturningInitialValue() { yield(with: .success(nil)) }
  /// Reading the stored value failed.
  public func yield(throwing error: any Error) { yield(with: .failure(error)) }
  /// Delivers `result`.
  public func yield(with result: Result<Value?, any Error>) { callback(result) }
}

/// Ends a key's subscription: cancelled explicitly, or when the last copy is released.
public struct SharedSubscription: Sendable {
  private let box: Box

  /// A subscription that runs `cancel` once when it ends.
  public init(_ cancel: @escaping @Sendable () -> Void) {
    box = Box(cancel)
  }

  /// Ends the subscription (once; later calls do nothing).
  public func cancel() { box.cancel() }

  private final class Box: Sendable {
    private let onCancel: LockIsolated<(@Sendable () -> Void)?>

    init(_ onCancel: @escaping @Sendable () -> Void) {
      self.onCancel = LockIsolated(onCancel)
    }

    func cancel() {
      let cancel = onCancel.withLock { stored in
        defer { stored = nil }
        return stored
      }
      cancel?()
    }

    deinit { cancel() }
  }
}

/// Resumes a callback exactly once; a second resume is a runtime issue, and a continuation dropped without one
/// resumes with "no value" so nothing waits forever.
private final class ContinuationBox<Result>: @unchecked Sendable {
  private let callback: LockIsolated<(@Sendable (Swift.Result<Result, any Error>) -> Void)?>
  private let description: String
  /// What a dropped continuation resumes with.
  private let dropped: Swift.Result<Result, any Error>

  init(
    description: String, dropped: Swift.Result<Result, any Error>,
    callback: @escaping @Sendable (Swift.Result<Result, any Error>) -> Void
  ) {
    self.callback = LockIsolated(callback)
    self.description = description
    self.dropped = dropped
  }

  func resume(with result: Swift.Result<Result, any Error>) {
    let callback = self.callback.withLock { stored in
      defer { stored = nil }
      return stored
    }
    guard let callback else {
      reportIssue("\(description) resumed its continuation more than once.")
      return
    }
    callback(result)
  }

  deinit {
    let leaked = callback.withLock { $0 }
    guard let leaked else { return }
    reportIssue("\(description) dropped its continuation without resuming it: treated as no value.")
    leaked(dropped)
  }
}

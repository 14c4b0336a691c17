/// The store and cancellation namespace an effect's operation runs in: what `Task.cancel(id:)` and
/// `withTaskCancellation(id:)` reach from inside it.
struct EffectContext: Sendable {
  let registry: any CancellationRegistry
  let namespace: CancelNamespace

  @TaskLocal static var current: EffectContext?

  func cancelID(_ id: some Hashable & Sendable) -> CancelID {
    CancelID(id, namespace: namespace.scopes)
  }
}

/// Where cancellable work is registered: a root store (for work inside its effects), or the process-wide
/// registry for work outside any effect.
protocol CancellationRegistry: AnyObject, Sendable {
  /// Cancels the effects and registered work under `id`.
  func cancel(id: CancelID)
  /// Starts work cancellable by `id` and registers it, in one step under the lock that ``cancel(id:)`` takes: `start`
  /// starts the work and returns what cancels it. Returns a token for ``unregister(id:token:)``.
  ///
  /// One step, because a cancel that came between starting the work and registering it would cancel nothing, and
  /// the late registration would stay (TCA's `testCancellation` hung 7 times in 30 when they were two).
  func start(id: CancelID, cancelInFlight: Bool, _ start: () -> @Sendable () -> Void) -> UInt64
  func unregister(id: CancelID, token: UInt64)
}

/// Registered work outside any effect.
final class ProcessCancellationRegistry: CancellationRegistry, @unchecked Sendable {
  static let shared = ProcessCancellationRegistry()
  private let lock = Lock()
  private var next: UInt64 = 0
  private var work: [CancelID: [UInt64: @Sendable () -> Void]] = [:]

  func cancel(id: CancelID) {
    let cancels = lock.withLock { work.removeValue(forKey: id).map { Array($0.values) } ?? [] }
    for cancel in cancels { cancel() }
  }

  func start(id: CancelID, cancelInFlight: Bool, _ start: () -> @Sendable () -> Void) -> UInt64 {
    let (token, inFlight) = lock.withLock {
      next += 1
      let inFlight = cancelInFlight ? (work.removeValue(forKey: id).map { Array($0.values) } ?? []) : []
      work[id, default: [:]][next] = start()
      return (next, inFlight)
    }
    for cancel in inFlight { cancel() }
    return token
  }

  func unregister(id: CancelID, token: UInt64) {
    lock.withLock {
      work[id]?.removeValue(forKey: token)
      if work[id]?.isEmpty == true { work[id] = nil }
    }
  }

  /// Whether work is registered under `id` (for tests: a finished or cancelled unit leaves nothing behind).
  func isRegistered(_ id: CancelID) -> Bool {
    lock.withLock { work[id] != nil }
  }
}

/// Whether work wrapped in `withTaskCancellation(id:)` outside any effect is registered under `id` now.
package func isTaskCancellationRegistered(id: some Hashable & Sendable) -> Bool {
  ProcessCancellationRegistry.shared.isRegistered(CancelID(id))
}

extension Task where Success == Never, Failure == Never {
  /// Cancels, from inside an effect, every effect of the same store marked cancellable by `id` (and work wrapped
  /// in ``withTaskCancellation(id:cancelInFlight:operation:)``), as `Effect.cancel(id:)` would from a reducer.
  ///
  /// ```swift
  /// return .run { send in
  ///   if try await api.isDone() {
  ///     await Task.cancel(id: CancelID.polling)
  ///   }
  /// }
  /// ```
  public static func cancel(id: some Hashable & Sendable) async {
    if let context = EffectContext.current {
      context.registry.cancel(id: context.cancelID(id))
    } else {
      ProcessCancellationRegistry.shared.cancel(id: CancelID(id))
    }
  }
}

/// Runs `operation` as a unit cancellable by `id`: `Task.cancel(id:)`, or an `Effect.cancel(id:)` returned by the
/// store's reducer, cancels it; with `cancelInFlight`, starting it cancels the work already running under `id`.
///
/// Inside an effect the id belongs to the effect's store (and its `ifLet`/`forEach` namespace), like the ids of
/// `Effect.cancellable(id:)`; elsewhere to a process-wide registry.
///
/// ```swift
/// return .run { send in
///   let results = try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
///     try await api.search(query)
///   }
///   send(.results(results))
/// }
/// ```
public func withTaskCancellation<T: Sendable>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  let context = EffectContext.current
  let registry: any CancellationRegistry = context?.registry ?? ProcessCancellationRegistry.shared
  let cancelID = context?.cancelID(id) ?? CancelID(id)
  var started: Task<T, any Error>?
  let token = registry.start(id: cancelID, cancelInFlight: cancelInFlight) {
    // An unstructured task does not inherit the executor preference: keep test effects on their TestRuntime.
    let task: Task<T, any Error>
    if let runtime = TestRuntime.current {
      runtime.taskStarted()
      task = Task(executorPreference: runtime) {
        defer { runtime.taskFinished() }
        return try await operation()
      }
    } else {
      task = Task { try await operation() }
    }
    started = task
    return { task.cancel() }
  }
  defer { registry.unregister(id: cancelID, token: token) }
  // `start` ran before `start(id:)` returned.
  guard let task = started else { throw CancellationError() }
  return try await withTaskCancellationHandler {
    try await task.value
  } onCancel: {
    task.cancel()
  }
}

/// Whether the running task is an effect a store started (a test store reports an issue raised there at the
/// `send` that started it).
package func isRunningInsideEffect() -> Bool { EffectContext.current != nil }

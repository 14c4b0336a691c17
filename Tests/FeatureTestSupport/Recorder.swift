import Unidirectional

/// Records values from `@Sendable` closures (fake clients) for the test to inspect.
final class Recorder<Value>: Sendable {
  private let storage = LockIsolated<[Value]>([])

  func append(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  /// What was recorded so far, in order.
  var values: [Value] { storage.value }
}

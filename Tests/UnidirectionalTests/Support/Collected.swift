import Unidirectional

/// Collects values appended from any thread.
final class Collected<Value>: Sendable {
  private let values = LockIsolated<[Value]>([])

  func append(_ value: Value) { values.withLock { $0.append(value) } }
  var all: [Value] { values.value }
}

import Unidirectional

/// Records values from `@Sendable` closures (fake clients) for the test to inspect.
public final class Recorder<Value>: Sendable {
  private let storage = LockIsolated<[Value]>([])

  /// An empty recorder.
  public init() {}

  public func append(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  /// What was recorded so far, in order.
  public var values: [Value] { storage.value }
}

/// The values of a `.sequence` dependency (``UUIDGenerator/sequence(_:)``, ``DateGenerator/sequence(_:)``,
/// ``WithRandomNumberGenerator/sequence(_:)``), given in order from any thread; asking past the last one reports a
/// test failure naming the dependency, then gives a stand-in.
///
/// ```swift
/// let uuids = ValueSequence([UUID(0)], use: "@Dependency(\\.uuid) was called")
/// uuids.next { extra in UUID(extra) }   // UUID(0), then a failure and UUID(0), UUID(1), …
/// ```
final class ValueSequence<Value: Sendable>: Sendable {
  private let values: [Value]
  /// What the failure says happened too often: `@Dependency(\\.uuid) was called`.
  private let use: String
  private let position = LockIsolated(0)

  init(_ values: [Value], use: String) {
    self.values = values
    self.use = use
  }

  /// The next value, or — past the last one — `beyond(n)` for the `n`th value asked for too many (from 0).
  func next(beyond: (_ extra: Int) -> Value) -> Value {
    let index = position.withLock { index in
      defer { index += 1 }
      return index
    }
    guard index < values.count else {
      let count = values.count
      reportIssue("\(use) \(index + 1) times; its sequence has \(count) value\(count == 1 ? "" : "s").")
      return beyond(index - values.count)
    }
    return values[index]
  }
}

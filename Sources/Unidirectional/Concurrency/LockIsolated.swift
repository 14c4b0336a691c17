import Synchronization

/// A value that can be read and changed from any thread, one caller at a time.
///
/// The one lock-guarded box of the project: effects, clients and tests share mutable bookkeeping through it.
///
/// ```swift
/// let requests = LockIsolated<[URLRequest]>([])
/// let client = APIClient { request in
///   requests.withLock { $0.append(request) }
///   return Data()
/// }
/// XCTAssertEqual(requests.value.count, 1)
/// ```
public final class LockIsolated<Value>: @unchecked Sendable {
  // The value and its mutex in the box's own allocation (a `Lock` would be a second one).
  private let mutex: Mutex<Unchecked<Value>>

  /// A box holding `value`.
  public init(_ value: Value) {
    mutex = Mutex(Unchecked(value: value))
  }

  /// Runs `body` with exclusive access to the value; keep it short, and don't call back into code that may take
  /// the same lock.
  public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    try withoutActuallyEscaping(body) { body in
      let result = try mutex.withLock { storage throws -> Unchecked<T> in Unchecked(value: try body(&storage.value)) }
      return result.value
    }
  }

  /// A copy of the current value.
  public var value: Value { withLock { $0 } }

  /// Replaces the value.
  public func setValue(_ newValue: Value) {
    withLock { $0 = newValue }
  }
}

/// A value the mutex hands across its `sending` boundary: the box's own lock is what makes sharing it safe.
private struct Unchecked<Value>: @unchecked Sendable {
  var value: Value
}

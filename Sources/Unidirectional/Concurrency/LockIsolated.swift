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
  private var storage: Value
  private let lock = Lock()

  /// A box holding `value`.
  public init(_ value: Value) {
    self.storage = value
  }

  /// Runs `body` with exclusive access to the value; keep it short, and don't call back into code that may take
  /// the same lock.
  public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    try lock.withLock { try body(&storage) }
  }

  /// A copy of the current value.
  public var value: Value { lock.withLock { storage } }

  /// Replaces the value.
  public func setValue(_ newValue: Value) {
    lock.withLock { storage = newValue }
  }
}

/// The store a ``StoreInstrument`` was installed on, as the instrument sees it when the store starts.
///
/// ```swift
/// func storeDidStart(_ store: InstrumentedStore<State>) {
///   header = "\(typeName(store.reducerType)) from \(describe(store.initialState))"
///   lock = store.lock   // to read what `didReduce` collected, in step with the store
/// }
/// ```
public struct InstrumentedStore<State> {
  /// The state the store starts from.
  public let initialState: State
  /// The dependencies its reducer reads and its effects start with.
  public let dependencies: DependencyValues
  /// The type of its root reducer (e.g. `Counter`), for names.
  public let reducerType: Any.Type
  /// Runs closures with the store's lock held: in step with the instrument's own calls.
  public let lock: StoreLock
}

/// Runs closures with a store's lock held, for as long as the store lives, without keeping it alive.
///
/// An instrument's methods run with the store's lock held; another thread that reads what they collected takes the
/// same lock through this, so it sees every reduction up to that moment and none half-done.
///
/// ```swift
/// let pending = lock.withLock { buffer.takeAll() }   // nil once the store is gone
/// ```
public final class StoreLock: Sendable {
  private let owner: WeakLockOwner

  init(_ owner: any StoreLocking) {
    self.owner = WeakLockOwner(owner)
  }

  /// Runs `body` with the store's lock held (directly, when called from inside the store's own processing on this
  /// thread); `nil`, without running it, once the store has been released.
  public func withLock<T>(_ body: () throws -> T) rethrows -> T? {
    guard let owner = owner.value else { return nil }
    return try owner.withLock(body)
  }
}

/// A store core whose lock a ``StoreLock`` takes.
protocol StoreLocking: AnyObject, Sendable {
  func withLock<T>(_ body: () throws -> T) rethrows -> T
}

private final class WeakLockOwner: @unchecked Sendable {
  weak var value: (any StoreLocking)?
  init(_ value: any StoreLocking) { self.value = value }
}

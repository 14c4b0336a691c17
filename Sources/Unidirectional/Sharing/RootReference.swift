import Synchronization

#if canImport(Observation)
  import Observation
#endif

/// A reference that owns its value: what `Shared(value:)` makes, and (subclassed) a value kept by a persistence
/// strategy.
///
/// Locking: one recursive lock per value, held while the value is changed, so a change may read the same shared
/// value (or a view of it) again. Observers (`withObservationTracking`, SwiftUI) are told of a change before it
/// (with the lock held, so that one reading on another thread waits for the new value) and after it.
///
/// Reads of a value without references (`_isPOD`: numbers, flags, structs of them) take no lock: they are checked
/// against `version`, a sequence lock's counter (odd while a change is in progress), and read again under the lock
/// only if a change was in progress or ended meanwhile. Reads of other values take the lock: a copy made while
/// another thread changes the value could retain a reference that thread is releasing.
@usableFromInline
class RootReference<Value>: WritableReference<Value>, TrackedSharedRoot, @unchecked Sendable {
  // What a read touches comes first, so that a small value shares a cache line with them.
  /// Even when no change is in progress; made odd (with `lock` held) for the span of each change, then even again:
  /// a read that saw the same even number before and after copying the value copied a whole one.
  @usableFromInline let version = Atomic<UInt>(0)
  /// What observers register with: a plain class, so that registering a read involves no generic metadata (a key
  /// path into this generic class would be instantiated anew at each read: ~10,000 instructions).
  @usableFromInline let observable = ObservableValue()
  /// The key path a read registers with `observable`, kept here: on the cache line a read loads anyway.
  @usableFromInline let observedKeyPath = ObservableValue.observedKeyPath
  /// The value. Changed with `lock` held. Stored in the object (one cache line less per read than a separate
  /// allocation) without exclusivity checks: a change may read the value it is changing (through a view of it, on
  /// the same thread), which a dynamic exclusivity check would trap.
  @exclusivity(unchecked) @usableFromInline final var current: Value
  @usableFromInline let lock = RecursiveLock()
  /// Test stores that hold this value in their state: a change that comes from outside them (the file changed) is
  /// recorded in each, to be asserted like a state change. Guarded by `lock`.
  private var watchers: [WeakTracker] = []
  /// How many changes were made through ``withLock(_:)``. Guarded by `lock`.
  private var changeCount: UInt64 = 0
  /// The number of the last change handed to ``didChange(to:)``. Guarded by `saveLock`, which orders the hand-offs:
  /// two threads that change the value one after the other may reach the key in the other order once the value's
  /// lock is released, and the older change must not be saved last.
  private var savedChangeCount: UInt64 = 0
  private let saveLock = RecursiveLock()

  init(value: Value) {
    current = value
  }

  override var value: Value { read() }

  /// The live value: what a `Shared` read inlines, specialized for its type (no value witness calls).
  @inlinable
  final func read() -> Value {
    observable.access(observedKeyPath)
    if _isPOD(Value.self) {
      // The sequence lock's read: a copy of bytes only, kept if no change began or ended while it was made.
      let before = version.load(ordering: .acquiring)
      if before & 1 == 0 {
        let value = current
        atomicMemoryFence(ordering: .acquiring)
        if version.load(ordering: .relaxed) == before { return value }
      }
    }
    return lockedRead()
  }

  /// The value read with the lock held: a value with references, or one being changed (on another thread, which
  /// this waits for, or on this one, inside the change).
  @usableFromInline
  final func lockedRead() -> Value {
    lock.lock()
    defer { lock.unlock() }
    return current
  }

  override var root: AnyObject { self }

  var anyValue: Any { lockedRead() }

  override func snapshot(in tracker: SharedChangeTracker) -> Value? {
    // Unwrapped first: `nil as? Value` succeeds, with nil, when `Value` is an optional.
    guard let snapshot = tracker.snapshot(of: self) else { return nil }
    return snapshot as? Value
  }

  override func takeSnapshot(_ value: Value, in tracker: SharedChangeTracker) {
    tracker.setSnapshot(value, of: self)
  }

  override func isSame(as other: ReadableReference<Value>) -> Bool {
    other === self
  }

  override func value(in history: SharedValueHistory, atStep step: UInt64) -> Value {
    lock.lock()
    defer { lock.unlock() }
    // Unwrapped first: `nil as? Value` succeeds, with nil, when `Value` is an optional.
    if let recorded = history.value(of: self, atStep: step), let value = recorded as? Value { return value }
    return current
  }

  override func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    let tracker = SharedChangeTracker.inCurrentContext
    return try mutating {
      let (result, change) = try lock.withLock { () throws -> (R, (value: Value, number: UInt64)?) in
        tracker?.track(self, before: current)
        SharedValueHistory.rootWillChange(self, from: current)
        let result = try body(&current)
        guard savesChanges else { return (result, nil) }
        changeCount += 1
        return (result, (current, changeCount))
      }
      if let change { save(change.value, change: change.number) }
      return result
    }
  }

  /// Replaces the value with one that came from outside the program's own changes (its persistence strategy
  /// loaded it, the file changed on disk): it is not saved back, and every watching test store records it.
  /// A value equal to the current one changes nothing: observers are not told, and no test store records a change
  /// (a key may yield what it already holds: `UserDefaults` announces a change to any of its keys).
  func replaceFromStorage(_ newValue: Value) {
    if lock.withLock({ isKnownEqual(current, newValue) }) { return }
    mutating {
      lock.withLock {
        for watcher in watchers { watcher.tracker?.track(self, before: current) }
        SharedValueHistory.rootWillChange(self, from: current)
        current = newValue
      }
    }
  }

  /// Makes the test store whose `tracker` holds this value learn of changes that come from outside it.
  func watch(with tracker: SharedChangeTracker) {
    lock.withLock {
      watchers.removeAll { $0.tracker == nil }
      if !watchers.contains(where: { $0.tracker === tracker }) { watchers.append(WeakTracker(tracker: tracker)) }
    }
  }

  /// Hands change `number` to ``didChange(to:)``, unless a later change was handed over already: that one holds
  /// this one too, and saving this one after it would leave the storage with the older value.
  private func save(_ value: Value, change number: UInt64) {
    saveLock.withLock {
      guard number > savedChangeCount else { return }
      savedChangeCount = number
      didChange(to: value)
    }
  }

  /// Whether a change is handed to ``didChange(to:)`` (a persisted value saves it).
  var savesChanges: Bool { false }

  /// Called after each change made through ``withLock(_:)``, outside the value's lock, in the order of the changes
  /// (a change older than one already handed over is skipped).
  func didChange(to value: Value) {}

  override var description: String { "value: \(describe(value))" }

  /// Runs `body`, a change, telling observers before and after. The value's lock is held from before they are told
  /// until the change is made: an observer told of it on another thread that reads the value right away waits for
  /// the new one instead of reading the old.
  private func mutating<R>(_ body: () throws -> R) rethrows -> R {
    defer { observable.didChange() }
    return try lock.withLock {
      // Odd for the outermost change on this thread (a change inside a change finds it odd already): lock-free reads
      // on other threads then wait for the lock, as they did before the version existed.
      let outer = version.load(ordering: .relaxed)
      let isOutermost = outer & 1 == 0
      if isOutermost {
        version.store(outer &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
      }
      defer { if isOutermost { version.store(outer &+ 2, ordering: .releasing) } }
      observable.willChange()
      return try body()
    }
  }
}

/// The observable stand-in of a shared value: observers register a read of `value` and are told of its changes.
@usableFromInline
final class ObservableValue: Sendable {
  #if canImport(Observation)
    @usableFromInline let registrar = ObservationRegistrar()
    /// What observers register: made once (a key path literal is looked up in the runtime's cache at every use, a
    /// third of a read's cost).
    private static let valueKeyPath = \ObservableValue.value
  #endif

  /// The key path a read registers, for its reference to keep (see ``access(_:)``).
  static var observedKeyPath: ObservedKeyPath {
    #if canImport(Observation)
      ObservedKeyPath(keyPath: valueKeyPath)
    #else
      ObservedKeyPath()
    #endif
  }

  /// Registers a read with the observation tracking in progress on this thread, if any. The key path comes from the
  /// caller (``RootReference`` keeps it beside the value): read from this object, it was one more cache line to load
  /// per read (a static one, a lazy initializer's check).
  @inlinable
  func access(_ observed: ObservedKeyPath) {
    #if canImport(Observation)
      registrar.access(self, keyPath: observed.keyPath)
    #endif
  }

  func willChange() {
    #if canImport(Observation)
      registrar.willSet(self, keyPath: Self.valueKeyPath)
    #endif
  }

  func didChange() {
    #if canImport(Observation)
      registrar.didSet(self, keyPath: Self.valueKeyPath)
    #endif
  }

  /// The property observers register: it stands for the whole shared value.
  var value: Void { () }
}

#if canImport(Observation)
  extension ObservableValue: Observable {}
#endif

/// The key path an ``ObservableValue`` registers reads of.
@usableFromInline
struct ObservedKeyPath: Sendable {
  #if canImport(Observation)
    @usableFromInline let keyPath: KeyPath<ObservableValue, Void> & Sendable
  #endif
}

private struct WeakTracker {
  weak var tracker: SharedChangeTracker?
}

/// Whether `lhs` and `rhs` are equal, for a type that is `Equatable`; false when it is not.
func isKnownEqual<T>(_ lhs: T, _ rhs: T) -> Bool {
  guard let lhs = lhs as? any Equatable else { return false }
  func open<E: Equatable>(_ lhs: E) -> Bool { lhs == rhs as? E }
  return open(lhs)
}

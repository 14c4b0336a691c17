/// What a `TestStore` knows of the shared values its feature changed since its last assertion, as TCA's test store
/// does with swift-sharing.
///
/// The store's reducer and effects run with the tracker among their dependencies: the first change each makes to a
/// shared value records the value before it (the snapshot). An assertion then runs ``asserting(_:)``: inside it,
/// reading a shared value gives its snapshot and `withLock` changes the snapshot, so the expected state is built
/// from the values as of the last assertion while the actual state holds the live ones. A change that comes from
/// outside the store (the file behind `.fileStorage` changed) is recorded too, for the stores that hold the value.
package final class SharedChangeTracker: @unchecked Sendable {
  private struct Change {
    let root: AnyObject
    var snapshot: Any
  }

  private let lock = Lock()
  /// Guarded by `lock`.
  private var changes: [ObjectIdentifier: Change] = [:]

  package init() {}

  /// Records `value`, the root's value before a change, unless a change to it is already recorded.
  func track(_ root: AnyObject, before value: @autoclosure () -> Any) {
    let id = ObjectIdentifier(root)
    lock.withLock {
      if changes[id] == nil { changes[id] = Change(root: root, snapshot: value()) }
    }
  }

  func snapshot(of root: AnyObject) -> Any? {
    lock.withLock { changes[ObjectIdentifier(root)]?.snapshot }
  }

  func setSnapshot(_ value: Any, of root: AnyObject) {
    lock.withLock { changes[ObjectIdentifier(root)] = Change(root: root, snapshot: value) }
  }

  /// Whether a shared value changed since the last ``reset()``.
  package var hasChanges: Bool { lock.withLock { !changes.isEmpty } }

  /// Forgets every recorded change: the values as they are now are what the next assertion starts from.
  package func reset() {
    let released = lock.withLock {
      defer { changes.removeAll() }
      return changes
    }
    _ = released  // released outside the lock: a value's deinit may take other locks
  }

  /// Runs `body` as an assertion of this tracker (see the type's documentation).
  package func asserting<R>(_ body: () throws -> R) rethrows -> R {
    let context = ThreadContext.current(key: ThreadContext.key)
    let outer = context.pointee.assertingTracker
    context.pointee.assertingTracker = Unmanaged.passUnretained(self)
    defer { context.pointee.assertingTracker = outer }
    return try body()
  }

  /// Runs `body` with the live shared values, inside an assertion.
  package static func withoutAsserting<R>(_ body: () throws -> R) rethrows -> R {
    let context = ThreadContext.current(key: ThreadContext.key)
    let outer = context.pointee.assertingTracker
    context.pointee.assertingTracker = nil
    defer { context.pointee.assertingTracker = outer }
    return try body()
  }

  /// The tracker whose assertion runs on this thread, if any.
  static var asserting: SharedChangeTracker? {
    guard DependencyContext.detected == .test else { return nil }
    return ThreadContext.current(key: ThreadContext.key).pointee.assertingTracker?.takeUnretainedValue()
  }

  /// The tracker of the test store whose reducer or effect runs here, if any.
  static var inCurrentContext: SharedChangeTracker? {
    guard DependencyContext.detected == .test else { return nil }
    return Dependency(\.sharedChangeTracker).wrappedValue
  }
}

private enum SharedChangeTrackerKey: DependencyKey {
  static let liveValue: SharedChangeTracker? = nil
  static let testValue: SharedChangeTracker? = nil
}

extension DependencyValues {
  /// The tracker of the test store these dependencies belong to.
  package var sharedChangeTracker: SharedChangeTracker? {
    get { self[SharedChangeTrackerKey.self] }
    set { self[SharedChangeTrackerKey.self] = newValue }
  }
}

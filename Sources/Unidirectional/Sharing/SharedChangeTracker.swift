/// What a `TestStore` knows of the shared values its feature changed since its last assertion, as TCA's test store
/// does with swift-sharing — attributed to the step that made each change.
///
/// The store's reducer and effects run with the tracker among their dependencies: the first change each makes to a
/// shared value since the last assertion records the value before it (the baseline). After every action the store
/// reduces, ``recordStep()`` keeps the values of the shared values changed since the step before: each change
/// belongs to the reduction that made it, and a change an effect made outside any reduction to the next one reduced
/// after it (or, if none, to the next `store.assert` or the end of the test).
///
/// An assertion of a step runs between ``beginAssertion(through:expectingFromStep:)`` and ``endAssertion()``. Inside
/// ``asserting(_:)``, reading a shared value gives the value the test expects (the baseline, then what the closure's
/// `withLock` made of it); inside ``readingActual(_:)``, the value it had after the asserted step. Outside an
/// assertion of a step (`store.assert`, the end of the test), the actual side is the live value. A change that comes
/// from outside the store (the file behind `.fileStorage` changed) is recorded too, for the stores that hold it.
package final class SharedChangeTracker: @unchecked Sendable {
  private struct Entry {
    let root: any TrackedSharedRoot
    var value: Any
  }

  private let lock = Lock()
  // All guarded by `lock`.
  /// Each shared value changed since the last assertion, with its value as of that assertion; during an assertion,
  /// as the closure changed it.
  private var expected: [ObjectIdentifier: Entry] = [:]
  /// `expected` as the assertion in progress found it.
  private var baseline: [ObjectIdentifier: Entry] = [:]
  /// The shared values changed since the last recorded step.
  private var unrecorded: [ObjectIdentifier: any TrackedSharedRoot] = [:]
  /// The steps not yet asserted that changed shared values, oldest first, each with their values after it.
  private var steps: [(number: UInt64, values: [ObjectIdentifier: Any])] = []
  private var lastStep: UInt64 = 0
  /// The step the assertion in progress asserts; nil outside one, or when it asserts the state as it is now.
  private var assertedStep: UInt64?
  /// The values after `assertedStep` of the shared values changed since the last assertion.
  private var actual: [ObjectIdentifier: Any]?

  package init() {}

  // MARK: Recording

  /// Records `value`, the root's value before a change, unless a change to it is already recorded.
  func track(_ root: some TrackedSharedRoot, before value: @autoclosure () -> Any) {
    let id = ObjectIdentifier(root)
    lock.withLock {
      if expected[id] == nil { expected[id] = Entry(root: root, value: value()) }
      unrecorded[id] = root
    }
  }

  /// Ends a step (the store reduced an action): the shared values changed since the last step are attributed to it,
  /// with their values now. Returns the step's number, for ``beginAssertion(through:expectingFromStep:)``.
  package func recordStep() -> UInt64 {
    let (number, changed) = lock.withLock { () -> (UInt64, [ObjectIdentifier: any TrackedSharedRoot]?) in
      lastStep += 1
      if unrecorded.isEmpty { return (lastStep, nil) }
      defer { unrecorded.removeAll(keepingCapacity: true) }
      return (lastStep, unrecorded)
    }
    guard let changed else { return number }
    // Read outside the tracker's lock: a read takes the value's lock, which a change holds while it calls `track`.
    let values = changed.mapValues { $0.anyValue }
    lock.withLock { steps.append((number, values)) }
    return number
  }

  /// Whether a shared value changed since the last assertion.
  package var hasChanges: Bool { lock.withLock { !expected.isEmpty } }

  /// Forgets every recorded change: the values as they are now are what the next assertion starts from.
  package func reset() {
    let released = lock.withLock {
      defer {
        expected.removeAll()
        baseline.removeAll()
        unrecorded.removeAll()
        steps.removeAll()
        assertedStep = nil
        actual = nil
      }
      return (expected, steps)
    }
    _ = released  // released outside the lock: a value's deinit may take other locks
  }

  // MARK: Asserting

  /// Starts the assertion of the state after step `step` (nil: the state as it is now). The expected side starts from
  /// the values as of the last assertion, or, with `expectingFromStep`, from the step's own values (a non-exhaustive
  /// assertion builds the expected state from the actual one).
  ///
  /// Returns false when no shared value changed since the last assertion: both sides then read live values, and
  /// ``assertedStepChangedSharedValues`` is false.
  @discardableResult
  package func beginAssertion(through step: UInt64?, expectingFromStep: Bool = false) -> Bool {
    lock.withLock {
      assertedStep = step
      // Every shared value the store changed, in any step, has an entry here.
      guard !expected.isEmpty else { return false }
      baseline = expected
      guard let step else {
        if expectingFromStep { expected = [:] }
        return true
      }
      var values = expected.mapValues(\.value)
      for recorded in steps where recorded.number <= step {
        values.merge(recorded.values) { _, after in after }
      }
      actual = values
      if expectingFromStep { expected = expectedFromStep() }
      return true
    }
  }

  /// The expected side starts again from the asserted step's values.
  package func expectFromStep() {
    lock.withLock {
      if !(baseline.isEmpty && expected.isEmpty) { expected = expectedFromStep() }
    }
  }

  /// The baseline with the asserted step's values (none: the live values). Called with `lock` held.
  private func expectedFromStep() -> [ObjectIdentifier: Entry] {
    guard let actual else { return [:] }
    return baseline.mapValues { entry in
      Entry(root: entry.root, value: actual[ObjectIdentifier(entry.root)] ?? entry.value)
    }
  }

  /// Whether the asserted step (or any step before it not yet asserted) changed a shared value.
  package var assertedStepChangedSharedValues: Bool {
    lock.withLock {
      guard let step = assertedStep else { return !baseline.isEmpty }
      return steps.first.map { $0.number <= step } ?? false
    }
  }

  /// Ends the assertion: the asserted step's values are what the next one starts from.
  package func endAssertion() {
    // What was changed is released outside the lock: a value's deinit may take other locks.
    var released: [ObjectIdentifier: Entry] = [:]
    var releasedSteps: [(number: UInt64, values: [ObjectIdentifier: Any])] = []
    lock.lock()
    let step = assertedStep
    assertedStep = nil
    if baseline.isEmpty {
      // Nothing had changed; the closure's own changes (to values the store did not change) are forgotten.
      if !expected.isEmpty { swap(&released, &expected) }
    } else if let step, let actual {
      let asserted = steps.prefix { $0.number <= step }.count
      releasedSteps = Array(steps.prefix(asserted))
      steps.removeFirst(asserted)
      var stillChanging = Set(unrecorded.keys)
      for later in steps { stillChanging.formUnion(later.values.keys) }
      swap(&released, &expected)
      for (id, entry) in baseline where stillChanging.contains(id) {
        expected[id] = Entry(root: entry.root, value: actual[id] ?? entry.value)
      }
    } else {
      swap(&released, &expected)
      swap(&releasedSteps, &steps)
      unrecorded.removeAll()
    }
    if !baseline.isEmpty { baseline = [:] }
    actual = nil
    lock.unlock()
  }

  /// Takes the steps through `step` as asserted without an assertion (received actions the test skipped).
  package func skip(through step: UInt64) {
    beginAssertion(through: step)
    endAssertion()
  }

  func snapshot(of root: AnyObject) -> Any? {
    let readsActual = ThreadContext.current(key: ThreadContext.key).pointee.isReadingActualSharedValues
    let id = ObjectIdentifier(root)
    return lock.withLock { readsActual ? actual?[id] : expected[id]?.value }
  }

  func setSnapshot(_ value: Any, of root: some TrackedSharedRoot) {
    // The actual side is what the store did: nothing an assertion does changes it.
    guard !ThreadContext.current(key: ThreadContext.key).pointee.isReadingActualSharedValues else { return }
    lock.withLock { expected[ObjectIdentifier(root)] = Entry(root: root, value: value) }
  }

  /// Runs `body` on the expected side of an assertion of this tracker (see the type's documentation).
  package func asserting<R>(_ body: () throws -> R) rethrows -> R {
    try withSide(readingActual: false, body)
  }

  /// Runs `body` on the actual side of an assertion of this tracker: shared values read as they were after the
  /// asserted step (live, outside an assertion of a step).
  package func readingActual<R>(_ body: () throws -> R) rethrows -> R {
    try withSide(readingActual: true, body)
  }

  private func withSide<R>(readingActual: Bool, _ body: () throws -> R) rethrows -> R {
    let context = ThreadContext.current(key: ThreadContext.key)
    let (outer, outerSide) = (context.pointee.assertingTracker, context.pointee.isReadingActualSharedValues)
    context.pointee.assertingTracker = Unmanaged.passUnretained(self)
    context.pointee.isReadingActualSharedValues = readingActual
    defer {
      context.pointee.assertingTracker = outer
      context.pointee.isReadingActualSharedValues = outerSide
    }
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

/// The storage of a shared value, as the tracker reads it: any `RootReference`.
protocol TrackedSharedRoot: AnyObject {
  /// The live value.
  var anyValue: Any { get }
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

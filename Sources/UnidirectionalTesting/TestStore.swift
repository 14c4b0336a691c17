import Unidirectional

/// Tests a feature exhaustively: every state change, every action its effects feed back, every effect's end.
///
/// ```swift
/// @Test func autoClear() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Upload.State()) {
///     Upload()
///   } withDependencies: {
///     $0.clock = clock
///     $0.uploadClient.upload = { _ in ["m1"] }
///   }
///   await store.send(.uploadTapped) { $0.status = .uploading }
///   await store.receive(.uploadFinished(.success(["m1"]))) { $0.status = .success }
///   await clock.advance(by: .seconds(3))
///   await store.receive(.clearStatus) { $0.status = .idle }
/// }
/// ```
///
/// Effects run on a ``TestRuntime`` owned by the store: each `send`, `receive` and clock `advance` runs them until
/// they suspend, so the order of actions is exactly the order a live ``Store`` processes them in, and a `receive`
/// that cannot be satisfied fails at once instead of hanging.
public final class TestStore<State: Equatable, Action: Sendable>: @unchecked Sendable {
  /// The state as of the last assertion. Inside the closure of `send`, `receive` or `assert` it is still the state
  /// before the action: the closure is handed a copy to make match the state after it.
  public private(set) var state: State
  /// How strictly the store checks the test.
  public var exhaustivity: Exhaustivity = .on
  /// How long `receive` and `finish` wait for effects that run outside the store's runtime (real I/O, other
  /// actors). Effects that only wait on a ``TestClock`` never cause a wait.
  public var timeout: Duration = .seconds(1)

  /// The store's dependencies. Changing them affects the actions sent from now on and the effects they start;
  /// effects already running keep the values they started with.
  ///
  /// ```swift
  /// store.dependencies.date = .constant(Date(timeIntervalSince1970: 0))
  /// ```
  public var dependencies: DependencyValues {
    get { store.dependencies }
    set {
      store.dependencies = newValue
      journal.stackElementIDs.setValue(newValue.stackElementID)
    }
    // `store.dependencies.apiClient.fetch = { … }` reads `apiClient` before replacing part of it: that read is not
    // a use of the default (which may report a missing test value).
    _modify {
      var values = store.dependencies
      DependencyValues.configuringBegan()
      defer {
        DependencyValues.configuringEnded()
        store.dependencies = values
        journal.stackElementIDs.setValue(values.stackElementID)
      }
      yield &values
    }
  }

  /// Whether the feature dismissed itself (`@Dependency(\.dismiss)` at the root, as in TCA): the store then
  /// refuses further actions ("Can't send action to dismissed test store.") and stops waiting for the effects
  /// still in flight.
  public var isDismissed: Bool { dismissed.value }

  private let store: Store<State, Action>
  private let runtime: TestRuntime
  private let reporter: TestReporter
  private let journal: Journal<State, Action>
  private let location: Location
  private let dismissed: LockIsolated<Bool>
  /// The shared values the feature changed since the last assertion.
  private let sharedChanges: SharedChangeTracker
  private var didFinish = false

  /// A test store running `reducer` from `initialState`.
  ///
  /// `initialState` and `reducer` are evaluated with the store's dependencies (a state initializer reading
  /// `@Dependency(\.uuid)` gets the overridden generator).
  ///
  /// - Parameters:
  ///   - prepareDependencies: Overrides for this store. Everything else resolves to test values, and a dependency
  ///     without a safe test value fails the test when used.
  ///   - reporter: Where failures go; the running XCTest or Swift Testing test by default.
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    reporter: TestReporter = .automatic,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    TestStoreDefaults.install()
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    let journal = Journal<State, Action>()
    let runtime = TestRuntime()
    var dependencies = DependencyValues.current
    dependencies.context = .test
    dependencies.issueReporter = Self.issueReporter(reporter, current: journal.location, origin: location)
    DependencyValues.configuring { prepareDependencies(&dependencies) }
    let sharedChanges = SharedChangeTracker()
    dependencies.sharedChangeTracker = sharedChanges
    let values = dependencies.isolated()
    let (initialState, reducer) = Unidirectional.withDependencies { $0 = values } operation: { (initialState(), reducer()) }
    // The feature runs presented, as in TCA: dismissing it marks the store dismissed.
    let dismissed = LockIsolated(false)
    let skipEffects = LockIsolated<(() -> Void)?>(nil)
    var rootValues = values
    let root = PresentedRootReducer(base: reducer, dependencies: &rootValues) {
      dismissed.setValue(true)
      skipEffects.value?()
    }
    journal.stackElementIDs.setValue(rootValues.stackElementID)
    journal.startStackIDs()
    self.state = initialState
    self.runtime = runtime
    self.reporter = reporter
    self.journal = journal
    self.location = location
    self.dismissed = dismissed
    self.sharedChanges = sharedChanges
    let store = Store(
      initialState: initialState, reducer: root, dependencies: rootValues, runtime: runtime, observer: journal)
    self.store = store
    skipEffects.setValue { [weak store] in store?.skipRunningEffects() }
  }

  deinit {
    guard !didFinish else { return }
    runtime.runUntilIdle()
    if exhaustivity == .on {
      checkNoUnassertedReceivedActions(at: location)
      checkNoRunningEffects(at: location)
      checkNoUnassertedSharedChanges(at: location)
    }
    store.cancelAllEffects()
    runtime.runUntilIdle()
  }

  // MARK: Sending

  /// Sends `action`, asserts the state it produces with `updateStateToExpectedResult`, then runs the effects it
  /// started until they suspend.
  ///
  /// The closure receives the state as of the last assertion; make it match the state after `action`. Omit it
  /// when the action changes nothing.
  @discardableResult
  nonisolated(nonsending) public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    journal.location.set(location)
    runtime.hold()
    defer {
      runtime.release()
      journal.location.set(nil)
    }
    runtime.runUntilIdle()
    if isDismissed {
      report("Can't send action to dismissed test store.", at: location)
      return TestStoreTask(task: .none, runtime: runtime, timeout: timeout, reporter: reporter)
    }
    let pending = journal.received
    if !pending.isEmpty {
      // As in TCA: the failure is reported, and the received actions stay to be received.
      reportUnlessSkipped(
        """
        Must handle \(pending.count) received action\(pending.count == 1 ? "" : "s") before sending an action: …

        Unhandled actions:
        \(list(pending.map(\.action)))
        """, at: location)
      switch exhaustivity {
      case .on: break
      case .off(showSkippedAssertions: true): skipReceived(pending, at: location)
      case .off(showSkippedAssertions: false): journal.removeReceived(pending.count)
      }
    }
    let stackIDsBefore = journal.stackElementIDs.value.peek()
    // Effects this action starts report their issues here.
    store.dependencies.issueReporter = Self.issueReporter(reporter, current: journal.location, origin: location)
    let task = store.send(action)
    guard let sentState = journal.takeSentState() else {
      report("The action \(describe(action)) was not reduced: the store was released.", at: location)
      return TestStoreTask(task: task, runtime: runtime, timeout: timeout, reporter: reporter)
    }
    expect(
      sentState, afterApplying: updateStateToExpectedResult, for: "send", at: location, stackIDsFrom: stackIDsBefore)
    runtime.runUntilIdle()
    return TestStoreTask(task: task, runtime: runtime, timeout: timeout, reporter: reporter)
  }

  /// Asserts the current state without sending anything: useful after `skipReceivedActions()` in a
  /// non-exhaustive test.
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// await store.send(.closeTapped)
  /// await store.skipReceivedActions()
  /// store.assert { $0.child = nil }
  /// ```
  public func assert(
    _ updateStateToExpectedResult: (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    runtime.hold()
    defer { runtime.release() }
    runtime.runUntilIdle()
    withoutActuallyEscaping(updateStateToExpectedResult) { update in
      expect(
        state, afterApplying: update, for: "assert", at: location, stackIDsFrom: journal.stackElementIDs.value.peek(),
        allowUnchanged: true)
    }
  }

  // MARK: Receiving

  /// Asserts that effects fed back `expectedAction` next, and the state it produced.
  ///
  /// - Parameter timeout: How long to wait for effects running outside the test runtime; ``timeout`` by default.
  nonisolated(nonsending) public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      description: describe(expectedAction),
      matching: { $0 == expectedAction },
      mismatch: { received in
        let difference = diff(expectedAction, received) ?? "  \(describe(received))"
        return "\(difference)\n\n(Expected: −, Received: +)"
      },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that effects fed back an action of the case `actionCase` next, and the state it produced.
  nonisolated(nonsending) public func receive<Value>(
    _ actionCase: CasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action of the case \(Value.self)",
      matching: { actionCase.extract($0) != nil },
      mismatch: { received in "  \(describe(received))\n\nExpected an action of the case \(Value.self)." },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that effects fed back an action of the case `actionCase` with `value` next, and the state it produced.
  nonisolated(nonsending) public func receive<Value: Equatable>(
    _ actionCase: CasePath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: describe(actionCase.embed(value)),
      matching: { actionCase.extract($0) == value },
      mismatch: { received in
        let difference = diff(actionCase.embed(value), received) ?? "  \(describe(received))"
        return "\(difference)\n\n(Expected: −, Received: +)"
      },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that effects fed back an action matching `isMatching` next, and the state it produced.
  nonisolated(nonsending) public func receive(
    _ isMatching: @escaping (Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action matching the predicate",
      matching: isMatching,
      mismatch: { "  \(describe($0))\n\nIt does not match the predicate." },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  nonisolated(nonsending) private func receive(
    description: String,
    matching: (Action) -> Bool,
    mismatch: (Action) -> String,
    timeout: Duration?,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: Location
  ) async {
    journal.location.set(location)
    runtime.hold()
    defer {
      runtime.release()
      journal.location.set(nil)
    }
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var failure: String?
    for attempt in 0...Self.maximumWaits {
      runtime.runUntilIdle()
      let pending = journal.received
      if exhaustivity == .on ? !pending.isEmpty : pending.contains(where: { matching($0.action) }) { break }
      if attempt == Self.maximumWaits {
        failure = "effects kept running without sending it."
        break
      }
      failure = await waitForEffects(until: deadline, timeout: timeout, knownReceived: pending.count)
      if failure != nil { break }
    }
    var pending = journal.received
    guard exhaustivity == .on ? !pending.isEmpty : pending.contains(where: { matching($0.action) }) else {
      report("Expected to receive \(description), but received none: \(failure ?? "no effect is running.")", at: location)
      return
    }
    if exhaustivity != .on, let index = pending.firstIndex(where: { matching($0.action) }), index > 0 {
      skipReceived(Array(pending[..<index]), at: location)
      pending = journal.received
    }
    let step = pending[0]
    journal.removeReceived(1)
    if matching(step.action) {
      expect(
        step.state, afterApplying: updateStateToExpectedResult, for: "receive", at: location,
        stackIDsFrom: step.stackIDsBefore)
    } else {
      let later = pending.dropFirst().contains { matching($0.action) }
      report("Received unexpected action\(later ? " before this one" : ""): …\n\n\(mismatch(step.action))", at: location)
      state = step.state
    }
  }

  /// A bound on the waits of one `receive` or `finish`, so an effect that never stops running cannot hang a test.
  private static var maximumWaits: Int { 100_000 }

  // MARK: Finishing

  /// Waits for every effect to finish, then asserts that nothing was left unasserted.
  ///
  /// - Parameter timeout: How long to wait for effects running outside the test runtime; ``timeout`` by default.
  nonisolated(nonsending) public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    journal.location.set(location)
    runtime.hold()
    defer {
      runtime.release()
      journal.location.set(nil)
    }
    didFinish = true
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now.advanced(by: timeout)
    for _ in 0..<Self.maximumWaits {
      runtime.runUntilIdle()
      if store.runningEffects.isEmpty { break }
      if await waitForEffects(until: deadline, timeout: timeout, knownReceived: .max) != nil { break }
    }
    if exhaustivity == .on {
      checkNoUnassertedReceivedActions(at: location)
      checkNoRunningEffects(at: location)
      checkNoUnassertedSharedChanges(at: location)
    }
  }

  /// Marks every action received so far as asserted, taking the state they produced.
  nonisolated(nonsending) public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    runtime.hold()
    defer { runtime.release() }
    runtime.runUntilIdle()
    let pending = journal.received
    if pending.isEmpty {
      if strict { report("There were no received actions to skip.", at: location) }
      return
    }
    skipReceived(pending, at: location)
  }

  /// Stops waiting for the effects running now: they are no longer in flight for `finish` and the end of the test,
  /// but keep running, and the actions they feed back must still be received (as in TCA). Cancel an effect by
  /// sending the action that cancels it, or with the `TestStoreTask` of the send that started it.
  nonisolated(nonsending) public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    runtime.hold()
    defer { runtime.release() }
    runtime.runUntilIdle()
    let running = store.runningEffects
    if running.isEmpty {
      if strict { report("There were no in-flight effects to skip.", at: location) }
      return
    }
    reportSkipped(
      """
      \(running.count) in-flight effect\(running.count == 1 ? " was" : "s were") skipped, started by:
      \(running.map { "  • " + describe($0.action) }.joined(separator: "\n"))
      """, at: location)
    store.skipRunningEffects()
  }

  // MARK: Scoped settings

  /// Runs `operation` with this store's dependencies changed by `update`, then restores them.
  nonisolated(nonsending) public func withDependencies<R>(
    _ update: (inout DependencyValues) throws -> Void,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = dependencies
    defer { dependencies = previous }
    var updated = previous
    try DependencyValues.configuring { try update(&updated) }
    dependencies = updated
    return try await operation()
  }

  /// Runs `operation` with this store's exhaustivity set to `exhaustivity`, then restores it.
  nonisolated(nonsending) public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    defer { self.exhaustivity = previous }
    self.exhaustivity = exhaustivity
    return try await operation()
  }

  // MARK: Checks

  /// Runs effects until something may have changed (a job ran, or more than `knownReceived` actions are waiting to
  /// be asserted), or returns why nothing will change.
  nonisolated(nonsending) private func waitForEffects(
    until deadline: ContinuousClock.Instant, timeout: Duration, knownReceived: Int
  ) async -> String? {
    if runtime.runUntilIdle() > 0 { return nil }
    if journal.received.count > knownReceived { return nil }
    let running = store.runningEffects.count
    if running == 0 { return "no effect is running." }
    if runtime.isQuiescent {
      return """
        \(running) effect\(running == 1 ? " is" : "s are") running, but all are suspended on a TestClock or \
        waiting for each other. Advance the clock first.
        """
    }
    let remaining = ContinuousClock.now.duration(to: deadline)
    let workArrived = remaining > .zero ? await runtime.waitForWork(timeout: remaining) : false
    if !workArrived {
      return "timed out after \(timeout) waiting for effects running outside the test runtime."
    }
    return nil
  }

  /// Takes `steps` (the oldest received ones) as asserted, reporting them in `.off(showSkippedAssertions: true)`.
  private func skipReceived(_ steps: [Step<State, Action>], at location: Location) {
    guard let last = steps.last else { return }
    reportSkipped(
      """
      \(steps.count) received action\(steps.count == 1 ? " was" : "s were") skipped:
      \(list(steps.map(\.action)))
      """, at: location)
    journal.removeReceived(steps.count)
    state = last.state
  }

  private func checkNoUnassertedReceivedActions(at location: Location) {
    let pending = journal.received
    guard !pending.isEmpty else { return }
    report(
      """
      The store received \(pending.count) unexpected action\(pending.count == 1 ? "" : "s"): …

      Unhandled actions:
      \(list(pending.map(\.action)))

      To fix, assert them with receive, or skip them with skipReceivedActions().
      """, at: location)
    journal.removeReceived(pending.count)
  }

  /// Shared values changed since the last assertion (by an effect that outlived it, or by their file) must be
  /// asserted, with `assert`, before the test ends.
  private func checkNoUnassertedSharedChanges(at location: Location) {
    guard sharedChanges.hasChanges else { return }
    defer { sharedChanges.reset() }
    let difference = diff(state, state, asserting: sharedChanges) ?? "  \(customDump(state))"
    report(
      """
      Test store finished before asserting against changes to shared state: …

      \(difference)

      (Expected: −, Actual: +)

      Assert them with store.assert { … } at the end of the test.
      """, at: location)
  }

  private func checkNoRunningEffects(at location: Location) {
    for effect in store.runningEffects where !effect.isCancelled {
      report(
        """
        An effect returned for the action \(describe(effect.action)) is still running. It must complete \
        before the end of the test. …

        To fix, send an action that makes it finish or cancels it, advance the TestClock it sleeps on, or \
        call skipInFlightEffects().
        """, at: location)
    }
  }

  /// Compares `actual` with the expected state the closure makes, as TCA does: from the previous state when
  /// exhaustive, from `actual` itself when not.
  ///
  /// Shared values: the closure runs as an assertion of the store's change tracker, so it sees (and changes) the
  /// shared values as of the last assertion while `actual` holds their live values; a non-exhaustive test does not
  /// assert them.
  private func expect(
    _ actual: State,
    afterApplying updateStateToExpectedResult: ((inout State) throws -> Void)?,
    for operation: String,
    at location: Location,
    stackIDsFrom stackIDs: StackElementID,
    allowUnchanged: Bool = false
  ) {
    let previous = state
    defer {
      state = actual
      sharedChanges.reset()
    }
    if exhaustivity != .on { sharedChanges.reset() }
    let sharedValuesChanged = sharedChanges.hasChanges
    // The closure runs with the store's dependencies, and sees `store.state` still at `previous`. Its stack ids
    // continue from where the store's were before the action (so `$0.path.append(…)` gets the id the store gave),
    // from a copy: what the closure does never moves the store's own sequence.
    var values = store.dependencies
    values.stackElementID = .incrementing(from: stackIDs.generation)
    func makeExpected(from start: State) -> State? {
      var expected = start
      do {
        try Unidirectional.withDependencies { $0 = values } operation: {
          try sharedChanges.asserting { try updateStateToExpectedResult?(&expected) }
        }
      } catch {
        report("Threw error in the assertion of \(operation): \(error)", at: location)
        return nil
      }
      return expected
    }
    func matches(_ expected: State) -> Bool {
      sharedChanges.asserting { expected == actual }
    }
    switch exhaustivity {
    case .on:
      guard let expected = makeExpected(from: previous) else { return }
      if !matches(expected) {
        reportMismatch(expected: expected, actual: actual, at: location)
      } else if !allowUnchanged, !sharedValuesChanged, updateStateToExpectedResult != nil, expected == previous {
        report(
          """
          Expected state to change, but no change occurred.

          The trailing closure made no observable modifications to state. If no change to state is expected, \
          omit the trailing closure.
          """, at: location)
      }
    case let .off(showSkippedAssertions):
      guard let expected = makeExpected(from: actual) else { return }
      if !matches(expected) {
        reportMismatch(expected: expected, actual: actual, at: location)
      } else if showSkippedAssertions, let exhaustive = makeExpected(from: previous), !matches(exhaustive) {
        let difference = diff(exhaustive, actual, asserting: sharedChanges) ?? "  \(customDump(actual))"
        reportSkipped(
          "A state change was not asserted: …\n\n\(difference)\n\n(Expected: −, Actual: +)", at: location)
      }
    }
  }

  private func reportMismatch(expected: State, actual: State, at location: Location) {
    let difference = diff(expected, actual, asserting: sharedChanges) ?? "  \(customDump(actual))"
    report(
      """
      A state change does not match expectation: …

      \(difference)

      (Expected: −, Actual: +)
      """, at: location)
  }

  /// Reports an issue at the test store call in progress, or, for one raised inside an effect, at the `send`
  /// (`origin`) that started it.
  private static func issueReporter(
    _ reporter: TestReporter, current: CurrentLocation, origin: Location
  ) -> IssueReporter {
    IssueReporter { issue in
      let location = isRunningInsideEffect() ? origin : current.current(default: origin)
      reporter.report(location.failure(issue.message))
    }
  }

  /// A failure, whatever the exhaustivity.
  private func report(_ message: String, at location: Location) {
    reporter.report(location.failure(message))
  }

  /// A failure of an exhaustive test that a non-exhaustive one skips (shown as a note when it shows skipped
  /// assertions).
  private func reportUnlessSkipped(_ message: String, at location: Location) {
    if exhaustivity == .on {
      report(message, at: location)
    } else {
      reportSkipped(message, at: location)
    }
  }

  /// An assertion the test chose to skip: an informational note (a known issue in Swift Testing, a note in
  /// XCTest), never a failure; nothing at all with `.off(showSkippedAssertions: false)`.
  private func reportSkipped(_ message: String, at location: Location) {
    switch exhaustivity {
    case .on, .off(showSkippedAssertions: true):
      var failure = location.failure("Skipped assertions: …\n\n\(message)")
      failure.isSkippedAssertion = true
      reporter.report(failure)
    case .off(showSkippedAssertions: false):
      break
    }
  }

  private func list(_ actions: [Action]) -> String {
    actions.map { "  • " + describe($0) }.joined(separator: "\n")
  }
}

/// The source location of a `TestStore` call.
struct Location: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  func failure(_ message: String) -> TestFailure {
    TestFailure(message: message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// One reduced action, the state after it, and where the store's stack ids stood before it.
struct Step<State, Action>: @unchecked Sendable {
  let action: Action
  let state: State
  let stackIDsBefore: StackElementID
}

/// What the store reduced that the test has not asserted yet: the state after the action the test sent, and
/// the actions effects fed back, in order. Written by the store (possibly from an effect's thread), read by the test.
final class Journal<State, Action: Sendable>: StoreObserver, @unchecked Sendable {
  private struct Entries {
    var isExpectingSend = true
    var sent: State?
    var received: [Step<State, Action>] = []
    /// Where the store's stack ids stood after the last reduced action.
    var stackIDs: StackElementID?
  }

  private let storage = LockIsolated(Entries())
  /// Where the test is now, for runtime issues raised by effects.
  let location = CurrentLocation()
  /// The store's stack id generator (its `\.stackElementID`).
  let stackElementIDs = LockIsolated(StackElementIDGenerator.incrementing())

  /// Called by the store for every reduced action. The first action sent after `takeSentState()` is the test's
  /// own; every other action (fed back by an effect, or sent re-entrantly) is received.
  func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    let state = state.value
    let stackIDsAfter = stackElementIDs.value.peek()
    storage.withLock { entries in
      let stackIDsBefore = entries.stackIDs ?? StackElementID(generation: 0)
      entries.stackIDs = stackIDsAfter
      if reduction.origin == .sent, entries.isExpectingSend {
        entries.isExpectingSend = false
        entries.sent = state
      } else {
        entries.received.append(Step(action: action, state: state, stackIDsBefore: stackIDsBefore))
      }
    }
  }

  /// Starts the record of stack ids from where the store's generator stands now (after the initial state).
  func startStackIDs() {
    let now = stackElementIDs.value.peek()
    storage.withLock { $0.stackIDs = now }
  }

  /// The state after the action the test just sent, if the store reduced it; readies the journal for the next.
  func takeSentState() -> State? {
    storage.withLock { entries in
      defer {
        entries.sent = nil
        entries.isExpectingSend = true
      }
      return entries.sent
    }
  }

  /// The received steps not yet asserted, oldest first.
  var received: [Step<State, Action>] { storage.withLock { $0.received } }

  /// Removes the `count` oldest received steps.
  func removeReceived(_ count: Int) {
    storage.withLock { $0.received.removeFirst(min(count, $0.received.count)) }
  }
}

/// The `TestStore` call in progress, if any.
final class CurrentLocation: Sendable {
  private let storage = LockIsolated<Location?>(nil)

  func set(_ location: Location?) { storage.withLock { $0 = location } }

  func current(default location: Location) -> Location { storage.withLock { $0 } ?? location }
}

/// Process-wide setup done once when the first `TestStore` is made.
enum TestStoreDefaults {
  private static let installed: Void = {
    TestScopeProvider.startObservingXCTest()
    IssueReporter.testFallback = IssueReporter { issue in
      TestReporter.automatic.report(
        TestFailure(message: issue.message, fileID: "Unidirectional", filePath: "Unidirectional", line: 0, column: 0))
    }
  }()

  static func install() { _ = installed }
}

/// A test store of `R`'s state and actions: `let store: TestStoreOf<Feature>`, TCA's spelling.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable

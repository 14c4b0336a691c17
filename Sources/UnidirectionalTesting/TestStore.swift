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
  /// The state as of the last assertion.
  public private(set) var state: State
  /// How strictly the store checks the test.
  public var exhaustivity: Exhaustivity = .on
  /// How long `receive` and `finish` wait for effects that run outside the store's runtime (real I/O, other
  /// actors). Effects that only wait on a ``TestClock`` never cause a wait.
  public var timeout: Duration = .seconds(1)

  private let store: Store<State, Action>
  private let runtime: TestRuntime
  private let reporter: TestReporter
  private let journal: Journal<State, Action>
  private let location: Location
  private var didFinish = false

  /// A test store running `reducer` from `initialState`.
  ///
  /// - Parameters:
  ///   - prepareDependencies: Overrides for this store. Everything else resolves to test values, and a dependency
  ///     without a safe test value fails the test when used.
  ///   - reporter: Where failures go; the running XCTest or Swift Testing test by default.
  public init<R: Reducer<State, Action>>(
    initialState: State,
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
    let currentLocation = journal.location
    dependencies.issueReporter = IssueReporter { issue in
      reporter.report(currentLocation.current(default: location).failure(issue.message))
    }
    prepareDependencies(&dependencies)
    self.state = initialState
    self.runtime = runtime
    self.reporter = reporter
    self.journal = journal
    self.location = location
    self.store = Store(
      initialState: initialState, reducer: reducer(), dependencies: dependencies, runtime: runtime,
      onReduce: { action, origin, state in journal.append(Step(action: action, origin: origin, state: copy state)) })
  }

  deinit {
    guard !didFinish else { return }
    runtime.runUntilIdle()
    if exhaustivity == .on {
      checkNoUnassertedReceivedActions(at: location)
      checkNoRunningEffects(at: location)
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
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    journal.location.set(location)
    defer { journal.location.set(nil) }
    runtime.runUntilIdle()
    let pending = journal.unassertedReceived()
    if !pending.isEmpty {
      if exhaustivity == .on {
        report(
          """
          Must handle \(pending.count) received action\(pending.count == 1 ? "" : "s") before sending an action: …

          Unhandled actions:
          \(list(pending.map(\.action)))
          """, at: location)
      }
      journal.markAsserted(receivedCount: pending.count)
      if let last = pending.last { state = last.state }
    }
    let task = store.send(action)
    guard let step = journal.nextUnasserted(origin: .sent) else {
      report("The action \(describe(action)) was not reduced: the store is busy on another thread.", at: location)
      return TestStoreTask(task: task, runtime: runtime)
    }
    journal.markAsserted(nextFrom: .sent)
    expect(step.state, afterApplying: updateStateToExpectedResult, for: "send", at: location)
    runtime.runUntilIdle()
    return TestStoreTask(task: task, runtime: runtime)
  }

  // MARK: Receiving

  /// Asserts that effects fed back `expectedAction` next, and the state it produced.
  public func receive(
    _ expectedAction: Action,
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
        return "Received unexpected action: …\n\n\(difference)\n\n(Expected: −, Received: +)"
      },
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that effects fed back an action of the case `actionCase` next, and the state it produced.
  public func receive<Value>(
    _ actionCase: CasePath<Action, Value>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action of the case \(Value.self)",
      matching: { actionCase.extract($0) != nil },
      mismatch: { received in
        "Received unexpected action: …\n\n  \(describe(received))\n\nExpected an action of the case \(Value.self)."
      },
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that effects fed back an action matching `isMatching` next, and the state it produced.
  public func receive(
    _ isMatching: @escaping (Action) -> Bool,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action matching the predicate",
      matching: isMatching,
      mismatch: { "Received unexpected action: …\n\n  \(describe($0))\n\nIt does not match the predicate." },
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func receive(
    description: String,
    matching: (Action) -> Bool,
    mismatch: (Action) -> String,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: Location
  ) async {
    journal.location.set(location)
    defer { journal.location.set(nil) }
    let deadline = ContinuousClock.now.advanced(by: timeout)
    for _ in 0..<Self.maximumWaits {
      runtime.runUntilIdle()
      let pending = journal.unassertedReceived()
      if exhaustivity == .on, let step = pending.first {
        journal.markAsserted(receivedCount: 1)
        if matching(step.action) {
          expect(step.state, afterApplying: updateStateToExpectedResult, for: "receive", at: location)
        } else {
          report(mismatch(step.action), at: location)
          state = step.state
        }
        return
      }
      if exhaustivity == .off, let index = pending.firstIndex(where: { matching($0.action) }) {
        journal.markAsserted(receivedCount: index + 1)
        if index > 0 { state = pending[index - 1].state }
        expect(pending[index].state, afterApplying: updateStateToExpectedResult, for: "receive", at: location)
        return
      }
      if let reason = await waitForEffects(until: deadline, knownReceived: pending.count) {
        report("Expected to receive \(description), but received none: \(reason)", at: location)
        return
      }
    }
    report("Expected to receive \(description), but effects kept running without sending it.", at: location)
  }

  /// A bound on the waits of one `receive` or `finish`, so an effect that never stops running cannot hang a test.
  private static var maximumWaits: Int { 100_000 }

  // MARK: Finishing

  /// Waits for every effect to finish, then asserts that nothing was left unasserted.
  public func finish(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    journal.location.set(location)
    defer { journal.location.set(nil) }
    didFinish = true
    let deadline = ContinuousClock.now.advanced(by: timeout)
    for _ in 0..<Self.maximumWaits {
      runtime.runUntilIdle()
      if store.runningEffects.isEmpty { break }
      if await waitForEffects(until: deadline, knownReceived: .max) != nil { break }
    }
    if exhaustivity == .on {
      checkNoUnassertedReceivedActions(at: location)
      checkNoRunningEffects(at: location)
    }
  }

  /// Marks every action received so far as asserted, taking the state they produced.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    runtime.runUntilIdle()
    let pending = journal.unassertedReceived()
    if pending.isEmpty {
      if strict {
        report(
          "There were no received actions to skip.",
          at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
      }
      return
    }
    journal.markAsserted(receivedCount: pending.count)
    if let last = pending.last { state = last.state }
  }

  /// Cancels every effect still running.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    runtime.runUntilIdle()
    if store.runningEffects.isEmpty {
      if strict {
        report(
          "There were no in-flight effects to skip.",
          at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
      }
      return
    }
    store.cancelAllEffects()
    runtime.runUntilIdle()
  }

  // MARK: Checks

  /// Runs effects until something may have changed (a job ran, or more than `knownReceived` actions are waiting to
  /// be asserted), or returns why nothing will change.
  private func waitForEffects(until deadline: ContinuousClock.Instant, knownReceived: Int) async -> String? {
    if runtime.runUntilIdle() > 0 { return nil }
    if journal.unassertedReceived().count > knownReceived { return nil }
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

  private func checkNoUnassertedReceivedActions(at location: Location) {
    let pending = journal.unassertedReceived()
    guard !pending.isEmpty else { return }
    report(
      """
      The store received \(pending.count) unexpected action\(pending.count == 1 ? "" : "s"): …

      Unhandled actions:
      \(list(pending.map(\.action)))

      To fix, assert them with receive, or skip them with skipReceivedActions().
      """, at: location)
    journal.markAsserted(receivedCount: pending.count)
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

  private func expect(
    _ actual: State,
    afterApplying updateStateToExpectedResult: ((inout State) throws -> Void)?,
    for operation: String,
    at location: Location
  ) {
    let previous = state
    state = actual
    var expected = exhaustivity == .on ? previous : actual
    do {
      try updateStateToExpectedResult?(&expected)
    } catch {
      report("Threw error in the assertion of \(operation): \(error)", at: location)
      return
    }
    if expected != actual {
      let difference = diff(expected, actual) ?? "  \(customDump(actual))"
      report(
        """
        A state change does not match expectation: …

        \(difference)

        (Expected: −, Actual: +)
        """, at: location)
    } else if exhaustivity == .on, updateStateToExpectedResult != nil, expected == previous {
      report(
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to state is expected, \
        omit the trailing closure.
        """, at: location)
    }
  }

  private func report(_ message: String, at location: Location) {
    reporter.report(location.failure(message))
  }

  private func list(_ actions: [Action]) -> String {
    actions.map { "  • " + describe($0) }.joined(separator: "\n")
  }
}

/// The handle `TestStore.send` returns: the effects the action started, run on the test runtime.
public struct TestStoreTask: Sendable {
  let task: StoreTask
  let runtime: TestRuntime

  /// Cancels the effects and runs them until they have wound down.
  public func cancel() {
    task.cancel()
    runtime.runUntilIdle()
  }

  /// Whether the effects are still running.
  public var isRunning: Bool {
    runtime.runUntilIdle()
    return task.isRunning
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

/// One reduced action and the state after it.
struct Step<State, Action>: @unchecked Sendable {
  let action: Action
  let origin: ActionOrigin
  let state: State
}

/// Every action the store reduced, in order, and how many of them the test has asserted. Written by the store
/// (possibly from an effect's thread), read by the test.
final class Journal<State, Action>: @unchecked Sendable {
  private let storage = LockIsolated<(steps: [Step<State, Action>], asserted: Int)>(([], 0))
  /// Where the test is now, for runtime issues raised by effects.
  let location = CurrentLocation()

  func append(_ step: Step<State, Action>) {
    storage.withLock { $0.steps.append(step) }
  }

  /// The received steps not yet asserted, oldest first.
  func unassertedReceived() -> [Step<State, Action>] {
    storage.withLock { journal in journal.steps[journal.asserted...].filter { $0.origin == .received } }
  }

  /// The next step not yet asserted that came from `origin`.
  func nextUnasserted(origin: ActionOrigin) -> Step<State, Action>? {
    storage.withLock { journal in journal.steps[journal.asserted...].first { $0.origin == origin } }
  }

  /// Marks the next step from `origin`, and every step before it, as asserted.
  func markAsserted(nextFrom origin: ActionOrigin) {
    storage.withLock { journal in
      if let index = journal.steps[journal.asserted...].firstIndex(where: { $0.origin == origin }) {
        journal.asserted = index + 1
      }
    }
  }

  /// Marks the next `count` received steps (and any steps between them) as asserted.
  func markAsserted(receivedCount count: Int) {
    storage.withLock { journal in
      var remaining = count
      var index = journal.asserted
      while remaining > 0, index < journal.steps.count {
        if journal.steps[index].origin == .received { remaining -= 1 }
        index += 1
      }
      journal.asserted = index
    }
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
    IssueReporter.testFallback = IssueReporter { issue in
      TestReporter.automatic.report(
        TestFailure(message: issue.message, fileID: "Unidirectional", filePath: "Unidirectional", line: 0, column: 0))
    }
  }()

  static func install() { _ = installed }
}

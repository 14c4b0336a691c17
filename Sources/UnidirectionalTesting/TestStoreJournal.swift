import Unidirectional

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

/// One reduced action, the state after it, where the store's stack ids stood before it, and its step in the store's
/// record of shared changes (the values its reduction left in the shared values it changed).
struct Step<State, Action>: @unchecked Sendable {
  let action: Action
  let state: State
  let stackIDsBefore: StackElementID
  let sharedStep: UInt64
}

/// What the store reduced that the test has not asserted yet: the state after the action the test sent, and
/// the actions effects fed back, in order. Written by the store (possibly from an effect's thread), read by the test.
final class Journal<State, Action: Sendable>: StoreInstrument, @unchecked Sendable {
  private struct Entries {
    var isExpectingSend = true
    var sent: State?
    /// The shared step of `sent` (a separate field: an optional tuple of a generic type costs a metadata lookup at
    /// every use).
    var sentSharedStep: UInt64 = 0
    var received: [Step<State, Action>] = []
    /// Where the store's stack ids stood after the last reduced action.
    var stackIDs: StackElementID?
  }

  private let storage = LockIsolated(Entries())
  /// The store's record of shared changes: each reduction ends a step of it.
  let sharedChanges: SharedChangeTracker
  /// The store's runtime, when an interleaving explorer chooses its order and prints it: it is told which effect
  /// each new task runs, so that a printed schedule names it.
  let exploredRuntime: TestRuntime?
  /// The actions that may still start effects, by sequence number (explored runs only).
  private let recentActions = LockIsolated<[UInt64: Action]>([:])

  /// A tracer's instrument the journal passes everything on to: the trace of a failing explored run.
  private let tracing: (any StoreInstrument<State, Action>)?

  var measuresTime: Bool { tracing?.measuresTime ?? false }

  func storeDidStart(_ store: InstrumentedStore<State>) {
    tracing?.storeDidStart(store)
  }

  func storeDidEnd() {
    tracing?.storeDidEnd()
  }
  /// Checks run on the state after every reduced action (``TestStore/checkEveryState(_:)``).
  let invariants = LockIsolated<[Invariant<State, Action>]>([])
  /// Where the test is now, for runtime issues raised by effects.
  let location = CurrentLocation()
  /// The store's stack id generator (its `\.stackElementID`).
  let stackElementIDs = LockIsolated(StackElementIDGenerator.incrementing())

  init(
    sharedChanges: SharedChangeTracker, exploredRuntime: TestRuntime?,
    tracing: (any StoreInstrument<State, Action>)? = nil
  ) {
    self.sharedChanges = sharedChanges
    self.exploredRuntime = exploredRuntime
    self.tracing = tracing
  }

  /// Called by the store for every reduced action. The first action sent after `takeSentState()` is the test's
  /// own; every other action (fed back by an effect, or sent re-entrantly) is received.
  func didReduce(_ action: Action, _ reduction: Reduction, state reduced: ReducedState<State>) {
    tracing?.didReduce(action, reduction, state: reduced)
    let state = reduced.value
    // Before the invariants run: what they change in shared values is not this action's doing.
    let sharedStep = sharedChanges.recordStep()
    if exploredRuntime != nil {
      // Effects start in the batch of the action that returned them: older actions are no longer needed.
      recentActions.withLock {
        $0[reduction.sequence] = action
        $0[reduction.sequence &- 256] = nil
      }
    }
    for invariant in invariants.value { invariant.check(state, action) }
    let stackIDsAfter = stackElementIDs.value.peek()
    storage.withLock { entries in
      let stackIDsBefore = entries.stackIDs ?? StackElementID(generation: 0)
      entries.stackIDs = stackIDsAfter
      if reduction.origin == .sent, entries.isExpectingSend {
        entries.isExpectingSend = false
        entries.sent = state
        entries.sentSharedStep = sharedStep
      } else {
        entries.received.append(
          Step(action: action, state: state, stackIDsBefore: stackIDsBefore, sharedStep: sharedStep))
      }
    }
  }

  /// Names the task of an effect that starts, for an explored runtime's printed schedule.
  func effectDidChange(_ event: EffectEvent) {
    tracing?.effectDidChange(event)
    guard let exploredRuntime, event.kind == .started else { return }
    let action = recentActions.withLock { $0[event.startedBy] }
    let effect = event.effect
    exploredRuntime.labelNextTask(
      ScheduleLabel { "effect \(effect) of \(action.map(ScheduleLabel.brief) ?? "action #\(event.startedBy)")" })
  }

  /// Starts the record of stack ids from where the store's generator stands now (after the initial state).
  func startStackIDs() {
    let now = stackElementIDs.value.peek()
    storage.withLock { $0.stackIDs = now }
  }

  /// The state after the action the test just sent, if the store reduced it, and its step in the record of shared
  /// changes (in `sharedStep`); readies the journal for the next.
  func takeSentState(sharedStep: inout UInt64) -> State? {
    storage.withLock { entries in
      defer {
        entries.sent = nil
        entries.isExpectingSend = true
      }
      sharedStep = entries.sentSharedStep
      return entries.sent
    }
  }

  /// The received steps not yet asserted, oldest first.
  var received: [Step<State, Action>] { storage.withLock { $0.received } }

  /// Whether a received step not yet asserted, from the `checked`-th on, has an action matching `isMatching` (any
  /// action, without one), checked in place; and how many steps there are. A `receive` asks after every racing
  /// call it completes, each time about the steps that arrived since it last asked.
  func hasReceived(matching isMatching: ((Action) -> Bool)?, from checked: Int) -> (Bool, count: Int) {
    storage.withLock { entries in
      let received = entries.received
      guard let isMatching else { return (!received.isEmpty, received.count) }
      let found = received[min(checked, received.count)...].contains { isMatching($0.action) }
      return (found, received.count)
    }
  }

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
    CurrentTestProvider.startObservingXCTest()
    IssueReporter.testFallback = IssueReporter { issue in
      TestReporter.automatic.report(
        TestFailure(message: issue.message, fileID: "Unidirectional", filePath: "Unidirectional", line: 0, column: 0))
    }
  }()

  static func install() { _ = installed }
}

/// A test store of `R`'s state and actions: `let store: TestStoreOf<Feature>`, TCA's spelling.
public typealias TestStoreOf<R: ReducerDomain> = TestStore<R.State, R.Action>

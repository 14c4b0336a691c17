import Unidirectional
import XCTest

/// A feature with every way an action and an effect can come about: sent, fed back by `.send`, fed back by a
/// `.run` effect, an effect started by an action an effect fed back, and cancellation.
private struct Downloads: Reducer {
  struct State: Equatable, Sendable {
    var started = 0
    var finished = 0
  }
  enum Action: Equatable, Sendable {
    case start, counted, finished, chain, stop
  }
  enum CancelID { case download }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.started += 1
      return .merge(.send(.counted), .run { send in send(.finished) })
    case .counted:
      return .none
    case .finished:
      state.finished += 1
      return .none
    case .chain:
      return .run { send in send(.start) }
    case .stop:
      return .cancel(id: CancelID.download)
    }
  }
}

/// A long download that waits on the test clock until it is cancelled.
private struct LongDownload: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable { case start, stop }
  enum CancelID { case download }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] _ in try await clock.sleep(for: .seconds(3600)) }.cancellable(id: CancelID.download)
    case .stop:
      return .cancel(id: CancelID.download)
    }
  }
}

/// Writes down everything a store tells it, as readable lines.
private final class EventLog<State: Sendable, Action: Sendable>: StoreInstrument, @unchecked Sendable {
  let measuresTime: Bool
  let lines = LockIsolated<[String]>([])
  let reductions = LockIsolated<[Reduction]>([])
  let effectEvents = LockIsolated<[EffectEvent]>([])
  let states = LockIsolated<[State]>([])
  let start = LockIsolated<(state: State, reducerType: String, lock: StoreLock)?>(nil)
  let ended: XCTestExpectation?

  init(measuresTime: Bool = false, ended: XCTestExpectation? = nil) {
    self.measuresTime = measuresTime
    self.ended = ended
  }

  func storeDidStart(_ store: InstrumentedStore<State>) {
    start.setValue((store.initialState, typeName(store.reducerType), store.lock))
    lines.withLock { $0.append("start") }
  }

  func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    let cause = reduction.effect.map { " from effect \($0)" } ?? ""
    lines.withLock { $0.append("#\(reduction.sequence) \(reduction.origin) \(describe(action))\(cause)") }
    reductions.withLock { $0.append(reduction) }
    let state = state.value
    states.withLock { $0.append(state) }
  }

  func effectDidChange(_ event: EffectEvent) {
    let parent = event.parent.map { ", parent \($0)" } ?? ""
    lines.withLock { $0.append("effect \(event.effect) \(event.kind) (started by #\(event.startedBy)\(parent))") }
    effectEvents.withLock { $0.append(event) }
  }

  func storeDidEnd() {
    lines.withLock { $0.append("end") }
    ended?.fulfill()
  }
}

final class StoreInstrumentTests: XCTestCase {
  func testEveryReductionAndEffectIsReportedInOrder() async {
    let log = EventLog<Downloads.State, Downloads.Action>()
    let store = Store(initialState: Downloads.State(), instruments: [log]) { Downloads() }
    await store.send(.start).finish()
    XCTAssertEqual(
      log.lines.value,
      [
        "start",
        "#1 sent Downloads.Action.start",
        "#2 received Downloads.Action.counted",
        "effect 1 started (started by #1)",
        "#3 received Downloads.Action.finished from effect 1",
        "effect 1 finished (started by #1)",
      ])
    XCTAssertEqual(log.states.value.map(\.finished), [0, 0, 1])
    XCTAssertEqual(log.states.value.last, store.withState { copy $0 })
  }

  func testAnEffectStartedByAFedBackActionNamesItsParent() async {
    let log = EventLog<Downloads.State, Downloads.Action>()
    let store = Store(initialState: Downloads.State(), instruments: [log]) { Downloads() }
    await store.send(.chain).finish()
    let lines = log.lines.value
    XCTAssertEqual(
      lines[1...3],
      [
        "#1 sent Downloads.Action.chain", "effect 1 started (started by #1)",
        "#2 received Downloads.Action.start from effect 1",
      ])
    XCTAssertTrue(lines.contains("effect 2 started (started by #2, parent 1)"), "\(lines)")
    XCTAssertTrue(lines.contains("#4 received Downloads.Action.finished from effect 2"), "\(lines)")
    XCTAssertTrue(lines.contains("effect 1 finished (started by #1)"), "\(lines)")
    XCTAssertTrue(lines.contains("effect 2 finished (started by #2)"), "\(lines)")
  }

  func testCancellationIsReportedWhenItHappensAndTheEffectFinishesAfter() async {
    let clock = TestClock()
    let log = EventLog<LongDownload.State, LongDownload.Action>()
    let store = Store(initialState: LongDownload.State(), instruments: [log]) {
      LongDownload()
    } withDependencies: {
      $0.clock = clock
    }
    let download = store.send(.start)
    store.send(.stop)
    await download.finish()
    XCTAssertEqual(
      log.lines.value,
      [
        "start",
        "#1 sent LongDownload.Action.start",
        "effect 1 started (started by #1)",
        "#2 sent LongDownload.Action.stop",
        "effect 1 cancelled (started by #1)",
        "effect 1 finished (started by #1)",
      ])
  }

  func testCancellingASendsTaskAndReleasingTheStoreAreReported() async {
    let clock = TestClock()
    let ended = expectation(description: "the store ended")
    let log = EventLog<LongDownload.State, LongDownload.Action>(ended: ended)
    var store: Store<LongDownload.State, LongDownload.Action>? = Store(
      initialState: LongDownload.State(), instruments: [log]
    ) {
      LongDownload()
    } withDependencies: {
      $0.clock = clock
    }
    let first = store?.send(.start)
    first?.cancel()
    await first?.finish()
    let second = store?.send(.start)
    store = nil
    await second?.finish()
    await fulfillment(of: [ended], timeout: 10)
    XCTAssertEqual(
      log.lines.value,
      [
        "start",
        "#1 sent LongDownload.Action.start",
        "effect 1 started (started by #1)",
        "effect 1 cancelled (started by #1)",
        "effect 1 finished (started by #1)",
        "#2 sent LongDownload.Action.start",
        "effect 2 started (started by #2)",
        "effect 2 cancelled (started by #2)",
        "effect 2 finished (started by #2)",
        "end",
      ])
  }

  func testTimesAreMeasuredOnlyForObserversThatAskForThem() async {
    let timed = EventLog<Downloads.State, Downloads.Action>(measuresTime: true)
    let untimed = EventLog<Downloads.State, Downloads.Action>()
    let store = Store(initialState: Downloads.State(), instruments: [timed, untimed]) { Downloads() }
    let before = InstrumentationClock.nanoseconds
    await store.send(.start).finish()
    let after = InstrumentationClock.nanoseconds

    let timings = timed.reductions.value.compactMap(\.timing)
    XCTAssertEqual(timings.count, 3)
    for (timing, next) in zip(timings, timings.dropFirst()) {
      XCTAssertLessThanOrEqual(timing.start + timing.nanoseconds, next.start)
    }
    XCTAssertGreaterThanOrEqual(timings.first?.start ?? 0, before)
    XCTAssertLessThanOrEqual((timings.last?.start ?? .max) + (timings.last?.nanoseconds ?? 0), after)
    XCTAssertEqual(timings.first?.duration, .nanoseconds(Int64(timings.first?.nanoseconds ?? 0)))
    let eventTimes = timed.effectEvents.value.compactMap(\.time)
    XCTAssertEqual(eventTimes.count, 2)
    XCTAssertEqual(eventTimes, eventTimes.sorted())

    // Instruments of one store see the same reductions, with times when any of them asks.
    XCTAssertEqual(untimed.reductions.value, timed.reductions.value)
    XCTAssertEqual(untimed.lines.value, timed.lines.value)

    let alone = EventLog<Downloads.State, Downloads.Action>()
    let untimedStore = Store(initialState: Downloads.State(), instruments: [alone]) { Downloads() }
    await untimedStore.send(.start).finish()
    XCTAssertEqual(alone.reductions.value.map(\.sequence), [1, 2, 3])
    XCTAssertTrue(alone.reductions.value.allSatisfy { $0.timing == nil })
    XCTAssertTrue(alone.effectEvents.value.allSatisfy { $0.time == nil })
  }

  func testTheObserverStartsWithTheInitialStateTheReducerTypeAndTheStoresLock() async {
    let ended = expectation(description: "the store ended")
    let log = EventLog<Downloads.State, Downloads.Action>(ended: ended)
    var store: Store<Downloads.State, Downloads.Action>? = Store(
      initialState: Downloads.State(started: 7), instruments: [log]
    ) { Downloads() }
    store?.send(.counted)
    guard let start = log.start.value else { return XCTFail("storeDidStart was not called") }
    XCTAssertEqual(start.state, Downloads.State(started: 7))
    XCTAssertEqual(start.reducerType, "Downloads")
    XCTAssertEqual(start.lock.withLock { log.reductions.value.count }, 1)
    store = nil
    await fulfillment(of: [ended], timeout: 10)
    XCTAssertNil(start.lock.withLock { 1 }, "the lock of a released store runs nothing")
  }

  func testActionsSentThroughAScopedStoreAreTheRootsActions() {
    let log = EventLog<Parent.State, Parent.Action>()
    let store = Store(initialState: Parent.State(), instruments: [log]) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    child.send(.counted)
    XCTAssertEqual(log.lines.value, ["start", "#1 sent Parent.Action.child(Downloads.Action.counted)"])
  }

  func testAStoreWithoutObserversReportsNothingAndSendsAsBefore() async {
    let store = Store(initialState: Downloads.State(), instruments: []) { Downloads() }
    await store.send(.start).finish()
    XCTAssertEqual(store.finished, 1)
  }
}

private struct Parent: Reducer {
  struct State: Equatable, Sendable { var child = Downloads.State() }
  enum Action: Equatable, Sendable {
    case child(Downloads.Action)
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.childCase) { Downloads() }
  }
}

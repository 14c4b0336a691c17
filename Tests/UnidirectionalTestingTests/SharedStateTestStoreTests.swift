import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// TCA's shared-state TestStore tests (`SharedTests.swift` of TCA 1.15, before it moved to swift-sharing), ported:
/// a change to a shared value is asserted like any state change, in the closure of the action that made it (or of
/// the next assertion, for a change an effect made), and the failures read as TCA's do.
final class SharedStateTestStoreTests: XCTestCase {
  private func makeStore(
    clock: TestClock = TestClock(), failures: TestFailures? = nil, stats: Shared<Stats> = Shared(value: Stats()),
    isOn: Shared<Bool> = Shared(value: false)
  ) -> TestStore<SharedFeature.State, SharedFeature.Action> {
    let state = SharedFeature.State(
      profile: Shared(value: Profile(stats: Shared(value: Stats()))), sharedCount: Shared(value: 0), stats: stats,
      isOn: isOn)
    if let failures {
      return TestStore(
        initialState: state, reducer: { SharedFeature() }, withDependencies: { $0.clock = clock },
        reporter: failures.reporter)
    }
    return TestStore(initialState: state) {
      SharedFeature()
    } withDependencies: {
      $0.clock = clock
    }
  }

  func testSharing() async {
    let store = makeStore()
    await store.send(.sharedIncrement) {
      $0.$sharedCount.withLock { $0 = 1 }
    }
    await store.send(.incrementStats) {
      $0.profile.$stats.withLock { $0.count = 1 }
      $0.$stats.withLock { $0.count = 1 }
    }
    XCTAssertEqual(store.state.profile.stats.count, 1)
  }

  func testSharingWithDelegateActionIsAssertedInTheDelegateActionsReceive() async {
    // The store reduces the action an effect sends synchronously within the send, but the shared change it makes is
    // its own: asserted in its receive, with its other changes (TCA 1.x asserts it in the send; issue 45 #3).
    let store = makeStore()
    await store.send(.incrementSharedInDelegate)
    await store.receive(.delegate(.didIncrement)) {
      $0.count = 1
      $0.$stats.withLock { $0.count = 1 }
    }
  }

  func testSharingFailureShowsTheExpectedAndLiveValues() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.sharedIncrement) {
      $0.$sharedCount.withLock { $0 = 2 }
    }
    XCTAssertEqual(store.state.sharedCount, 1)
    XCTAssertEqual(failures.messages.count, 1)
    let message = failures.messages.first ?? ""
    XCTAssertTrue(message.hasPrefix("A state change does not match expectation: …"), message)
    XCTAssertTrue(message.contains("-   sharedCount: 2,\n+   sharedCount: 1,"), message)
  }

  func testNonExhaustiveStoresDoNotAssertSharedChangesButCheckWhatIsAsserted() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    store.exhaustivity = .off(showSkippedAssertions: false)
    await store.send(.sharedIncrement)
    XCTAssertEqual(store.state.sharedCount, 1)
    XCTAssertEqual(failures.messages, [])

    await store.send(.sharedIncrement) {
      $0.$sharedCount.withLock { $0 = 3 }
    }
    XCTAssertEqual(store.state.sharedCount, 2)
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages.first?.contains("-   sharedCount: 3,\n+   sharedCount: 2,") == true)
  }

  func testOneSharedValueHeldTwiceIsAssertedThroughEither() async {
    let stats = Shared(value: Stats())
    let store = TestStore(
      initialState: SharedFeature.State(
        profile: Shared(value: Profile(stats: stats)), sharedCount: Shared(value: 0), stats: stats)
    ) {
      SharedFeature()
    }
    await store.send(.incrementStats) {
      $0.profile.$stats.withLock { $0.count = 2 }
    }
    XCTAssertEqual(stats.wrappedValue.count, 2)
  }

  func testIncrementalMutation() async {
    let store = makeStore()
    await store.send(.sharedIncrement) {
      $0.$sharedCount.withLock { $0 += 1 }
    }
  }

  func testIncrementalMutationFailure() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.sharedIncrement) {
      $0.$sharedCount.withLock { $0 += 2 }
    }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages.first?.contains("-   sharedCount: 2,\n+   sharedCount: 1,") == true)
  }

  func testAChangeMadeByAReceivedActionIsAssertedInTheReceive() async {
    let store = makeStore()
    await store.send(.request)
    await store.receive(.sharedIncrement) {
      $0.$sharedCount.withLock { $0 = 1 }
    }
  }

  func testAnUnassertedChangeOfAReceivedActionFails() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.request)
    await store.receive(.sharedIncrement)
    XCTAssertEqual(failures.messages.count, 1)
    let message = failures.messages.first ?? ""
    XCTAssertTrue(message.contains("-   sharedCount: 0,\n+   sharedCount: 1,"), message)
  }

  func testAChangeAnEffectMakesLaterIsAssertedWithAssert() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    let effect = await store.send(.longLivingEffect)
    await clock.advance(by: .seconds(1))
    await effect.finish()
    store.assert {
      $0.$sharedCount.withLock { $0 = 1 }
    }
  }

  func testAChangeAnEffectMadeThatIsNeverAssertedFailsAtTheEnd() async {
    let failures = TestFailures()
    let clock = TestClock()
    let store = makeStore(clock: clock, failures: failures)
    await store.send(.longLivingEffect)
    await clock.advance(by: .seconds(1))
    await store.finish()
    XCTAssertEqual(failures.messages.count, 1)
    let message = failures.messages.first ?? ""
    XCTAssertTrue(
      message.hasPrefix("Test store finished before asserting against changes to shared state: …"), message)
    XCTAssertTrue(message.contains("-   sharedCount: 0,\n+   sharedCount: 1,"), message)
  }

  func testAnIncorrectAssertionOfAnEffectsChangeFails() async {
    let failures = TestFailures()
    let clock = TestClock()
    let store = makeStore(clock: clock, failures: failures)
    let effect = await store.send(.longLivingEffect)
    await clock.advance(by: .seconds(1))
    await effect.finish()
    store.assert {
      $0.$sharedCount.withLock { $0 = 2 }
    }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages.first?.contains("-   sharedCount: 2,\n+   sharedCount: 1,") == true)
  }

  func testATimerThatChangesSharedStateInTheReducer() async {
    let clock = TestClock()
    let store = TestStore(initialState: TimerFeature.State(count: Shared(value: 0))) {
      TimerFeature()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.startTimer)
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTick) {
      $0.$count.withLock { $0 = 1 }
    }
    await store.send(.stopTimer)
    await clock.advance(by: .seconds(1))
  }

  func testATimerThatChangesSharedStateInItsEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: TimerFeature.State(count: Shared(value: 0))) {
      TimerFeature(incrementsInEffect: true)
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.startTimer)
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTick) {
      $0.$count.withLock { $0 = 1 }
    }
    await store.send(.stopTimer)
    await clock.advance(by: .seconds(1))
    store.assert {
      $0.$count.withLock { $0 = 42 }
    }
  }

  func testAnUnassertedReducerChangeIsAStateChangeThatWasNotExpected() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: TimerFeature.State(count: Shared(value: 0)), reducer: { TimerFeature() },
      reporter: failures.reporter)
    await store.send(.timerTick)
    XCTAssertEqual(
      failures.messages,
      [
        """
        A state change does not match expectation: …

          SharedStateTestStoreTests.TimerFeature.State(
        -   count: 0
        +   count: 1
          )

        (Expected: −, Actual: +)
        """
      ])
  }

  func testAnAssertionClosureMayChangeASharedValueItHoldsElsewhere() async {
    let isOn = Shared(value: false)
    let store = makeStore(isOn: isOn)
    await store.send(.toggleIsOn) { _ in
      isOn.withLock { $0 = true }
    }
    await store.send(.toggleIsOn) { _ in
      isOn.withLock { $0 = false }
    }
  }

  func testAssertingAChangeNothingMadeFails() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.noop) {
      $0.$sharedCount.withLock { $0 = 5 }
    }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages.first?.contains("-   sharedCount: 5,\n+   sharedCount: 0,") == true)
  }

  func testTheListSeesTheDetailsDeletion() async throws {
    let todos = Shared(value: IdentifiedArrayOf<Todo>([Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Eggs")]))
    let detail = try XCTUnwrap(Shared(todos[id: 1]))
    let store = TestStore(initialState: TodoApp.State(todos: todos, detail: TodoDetail.State(todo: detail))) {
      TodoApp()
    }
    // The parent removes the element while reacting to the detail's delegate action, which the store processes
    // within the send: the change is the delegate action's, asserted in its receive.
    await store.send(.detail(.deleteTapped))
    await store.receive(.detail(.delegate(.delete(1)))) {
      $0.$todos.withLock { _ = $0.remove(id: 1) }
    }
    XCTAssertEqual(todos.wrappedValue.ids, [2])
    XCTAssertEqual(store.state.detail.todo.title, "Milk", "a removed element's view keeps its last value")
  }

  func testTheListSeesTheDetailsEdit() async throws {
    let todos = Shared(value: IdentifiedArrayOf<Todo>([Todo(id: 1, title: "Milk")]))
    let detail = try XCTUnwrap(Shared(todos[id: 1]))
    let store = TestStore(initialState: TodoApp.State(todos: todos, detail: TodoDetail.State(todo: detail))) {
      TodoApp()
    }
    await store.send(.detail(.titleChanged("Oat milk"))) {
      $0.detail.$todo.withLock { $0.title = "Oat milk" }
    }
    XCTAssertEqual(todos.wrappedValue[id: 1]?.title, "Oat milk")
  }
}

// MARK: - Features

extension SharedStateTestStoreTests {
  struct Stats: Codable, Equatable, Sendable {
    var count = 0
  }

  struct Profile: Equatable, Sendable {
    @Shared var stats: Stats
  }

  struct SharedFeature: Reducer {
    struct State: Equatable, Sendable {
      var count = 0
      var profile: Profile
      @Shared var sharedCount: Int
      @Shared var stats: Stats
      @Shared var isOn: Bool

      init(
        count: Int = 0, profile: Shared<Profile>, sharedCount: Shared<Int>, stats: Shared<Stats>,
        isOn: Shared<Bool> = Shared(value: false)
      ) {
        self.count = count
        self.profile = profile.wrappedValue
        self._sharedCount = sharedCount
        self._stats = stats
        self._isOn = isOn
      }
    }

    enum Action: Equatable, Sendable {
      case delegate(Delegate)
      case incrementStats
      case incrementSharedInDelegate
      case longLivingEffect
      case noop
      case request
      case sharedIncrement
      case toggleIsOn
      enum Delegate: Equatable, Sendable { case didIncrement }
    }

    @Dependency(\.clock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .delegate(.didIncrement):
        state.count += 1
        state.$stats.withLock { $0.count += 1 }
        return .none
      case .incrementStats:
        state.profile.$stats.withLock { $0.count += 1 }
        state.$stats.withLock { $0.count += 1 }
        return .none
      case .incrementSharedInDelegate:
        return .send(.delegate(.didIncrement))
      case .longLivingEffect:
        return .run { [sharedCount = state.$sharedCount, clock] _ in
          try await clock.sleep(for: .seconds(1))
          sharedCount.withLock { $0 += 1 }
        }
      case .noop:
        return .none
      case .request:
        return .run { send in send(.sharedIncrement) }
      case .sharedIncrement:
        state.$sharedCount.withLock { $0 += 1 }
        return .none
      case .toggleIsOn:
        state.$isOn.withLock { $0.toggle() }
        return .none
      }
    }
  }

  struct TimerFeature: Reducer {
    struct State: Equatable, Sendable {
      @Shared var count: Int
    }
    enum Action: Equatable, Sendable { case startTimer, stopTimer, timerTick }
    enum CancelID { case timer }
    var incrementsInEffect = false
    @Dependency(\.clock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .startTimer:
        return .run { [count = state.$count, incrementsInEffect, clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            if incrementsInEffect { count.withLock { $0 += 1 } }
            send(.timerTick)
          }
        }
        .cancellable(id: CancelID.timer)
      case .stopTimer:
        guard incrementsInEffect else { return .cancel(id: CancelID.timer) }
        return .merge(
          .cancel(id: CancelID.timer),
          .run { [count = state.$count, clock] _ in
            try await clock.sleep(for: .seconds(1))
            count.withLock { $0 = 42 }
          })
      case .timerTick:
        if !incrementsInEffect { state.$count.withLock { $0 += 1 } }
        return .none
      }
    }
  }

  struct Todo: Equatable, Identifiable, Sendable {
    let id: Int
    var title: String
  }

  struct TodoDetail: Reducer {
    struct State: Equatable, Sendable {
      @Shared var todo: Todo
    }
    enum Action: Equatable, Sendable {
      case deleteTapped, titleChanged(String)
      case delegate(Delegate)
      enum Delegate: Equatable, Sendable { case delete(Todo.ID) }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .deleteTapped:
        return .send(.delegate(.delete(state.todo.id)))
      case let .titleChanged(title):
        state.$todo.withLock { $0.title = title }
        return .none
      case .delegate:
        return .none
      }
    }
  }

  struct TodoApp: Reducer {
    struct State: Equatable, Sendable {
      @Shared var todos: IdentifiedArrayOf<Todo>
      var detail: TodoDetail.State
    }
    enum Action: Equatable, Sendable {
      case detail(TodoDetail.Action)
      static let detailCase = CasePath(Action.detail) { if case let .detail(action) = $0 { action } else { nil } }
    }

    var body: some Reducer<State, Action> {
      Scope(state: \.detail, action: Action.detailCase) { TodoDetail() }
      Reduce { state, action in
        if case let .detail(.delegate(.delete(id))) = action {
          _ = state.$todos.withLock { $0.remove(id: id) }
        }
        return .none
      }
    }
  }
}

import Testing
import Unidirectional
import UnidirectionalTesting

/// Issue 45 #3: a change to a shared value is asserted at the step that made it — the action whose reduction changed
/// it, even when the store reduced that action within a `send` or during a `clock.advance` together with others — and
/// a change an effect made directly lands on the next step reduced after it.
@Suite struct SharedChangeAttributionTests {
  struct Item: Equatable, Identifiable, Sendable {
    let id: Int
    var n = 0
  }

  struct Counter: Reducer {
    struct State: Equatable, Sendable {
      @Shared var items: IdentifiedArrayOf<Item>
      var ticks = 0
    }
    enum Action: Equatable, Sendable {
      case kick, bump, startTimer, tick, bumpInEffect, bumped
    }
    @Dependency(\.clock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .kick:
        return .send(.bump)
      case .bump:
        state.$items.withLock { $0[id: 1]?.n += 1 }
        return .none
      case .startTimer:
        return .run { [clock] send in
          for _ in 0..<3 {
            try await clock.sleep(for: .seconds(1))
            send(.tick)
          }
        }
      case .tick:
        state.ticks += 1
        state.$items.withLock { $0[id: 1]?.n += 10 }
        return .none
      case .bumpInEffect:
        return .run { [items = state.$items] send in
          items.withLock { $0[id: 1]?.n += 100 }
          send(.bumped)
        }
      case .bumped:
        state.ticks += 1
        return .none
      }
    }
  }

  private func makeStore(
    clock: TestClock = TestClock(), reporter: TestReporter = .automatic
  ) -> TestStore<Counter.State, Counter.Action> {
    TestStore(
      initialState: Counter.State(items: Shared(value: [Item(id: 1)])), reducer: { Counter() },
      withDependencies: { $0.clock = clock }, reporter: reporter)
  }

  @Test func aChangeMadeByAnActionSentSynchronouslyIsAssertedInItsReceive() async {
    let store = makeStore()
    await store.send(.kick)
    await store.receive(.bump) { $0.$items.withLock { $0[id: 1]?.n = 1 } }
  }

  @Test func assertingItInTheSendFailsThere() async {
    let failures = TestFailures()
    let store = makeStore(reporter: failures.reporter)
    await store.send(.kick) { $0.$items.withLock { $0[id: 1]?.n = 1 } }
    await store.receive(.bump) { $0.$items.withLock { $0[id: 1]?.n = 1 } }
    #expect(failures.messages.count == 1)
    let message = failures.messages.first ?? ""
    #expect(message.hasPrefix("A state change does not match expectation: …"), "\(message)")
    #expect(message.contains("-       n: 1\n+       n: 0"), "\(message)")
  }

  @Test func eachActionReceivedDuringAnAdvanceIsAssertedWithItsOwnChange() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.startTimer)
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) {
      $0.ticks = 1
      $0.$items.withLock { $0[id: 1]?.n = 10 }
    }
    await store.receive(.tick) {
      $0.ticks = 2
      $0.$items.withLock { $0[id: 1]?.n = 20 }
    }
    await store.receive(.tick) {
      $0.ticks = 3
      $0.$items.withLock { $0[id: 1]?.n = 30 }
    }
  }

  @Test func aWrongValueForOneOfSeveralReceivedActionsShowsThatStepsValue() async {
    let failures = TestFailures()
    let clock = TestClock()
    let store = makeStore(clock: clock, reporter: failures.reporter)
    await store.send(.startTimer)
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) {
      $0.ticks = 1
      $0.$items.withLock { $0[id: 1]?.n = 30 }
    }
    await store.receive(.tick) {
      $0.ticks = 2
      $0.$items.withLock { $0[id: 1]?.n = 20 }
    }
    await store.receive(.tick) {
      $0.ticks = 3
      $0.$items.withLock { $0[id: 1]?.n = 30 }
    }
    #expect(failures.messages.count == 1)
    let message = failures.messages.first ?? ""
    #expect(message.contains("-       n: 30\n+       n: 10"), "\(message)")
  }

  @Test func aNonExhaustiveReceiveChecksTheValueItsStepLeft() async {
    let failures = TestFailures()
    let clock = TestClock()
    let store = makeStore(clock: clock, reporter: failures.reporter)
    store.exhaustivity = .off(showSkippedAssertions: false)
    await store.send(.startTimer)
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.$items.withLock { $0[id: 1]?.n = 10 } }
    await store.receive(.tick) { $0.ticks = 2 }
    await store.receive(.tick) { $0.$items.withLock { $0[id: 1]?.n = 20 } }
    #expect(failures.messages.count == 1)
    #expect(failures.messages.first?.contains("-       n: 20\n+       n: 30") == true, "\(failures.messages)")
  }

  @Test func skippedReceivedActionsTakeTheirSharedChangesWithThem() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.startTimer)
    await clock.advance(by: .seconds(2))
    await store.skipReceivedActions()
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) {
      $0.ticks = 3
      $0.$items.withLock { $0[id: 1]?.n = 30 }
    }
  }

  @Test func aChangeAnEffectMakesLandsOnTheNextActionReducedAfterIt() async {
    let store = makeStore()
    await store.send(.bumpInEffect)
    await store.receive(.bumped) {
      $0.ticks = 1
      $0.$items.withLock { $0[id: 1]?.n = 100 }
    }
  }

  @Test func aChangeAnEffectMakesIsNotPartOfTheActionThatStartedIt() async {
    let failures = TestFailures()
    let store = makeStore(reporter: failures.reporter)
    await store.send(.bumpInEffect) { $0.$items.withLock { $0[id: 1]?.n = 100 } }
    await store.receive(.bumped) { $0.ticks = 1 }
    #expect(failures.messages.count == 2)
    #expect(failures.messages.first?.contains("-       n: 100\n+       n: 0") == true, "\(failures.messages)")
    #expect(failures.messages.last?.contains("-       n: 0\n+       n: 100") == true, "\(failures.messages)")
  }
}

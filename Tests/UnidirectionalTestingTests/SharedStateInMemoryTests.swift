import Testing
import Unidirectional
import UnidirectionalTesting

/// TCA's `SharedStateInMemoryTests` (case studies), ported: a `@MainActor` Swift Testing suite in Swift 6 mode, as
/// TCA apps write theirs. A change to shared state is asserted in the closure of the action that made it, through
/// the projected value: `$0.counter.$stats.withLock { $0.increment() }`.
@MainActor
@Suite struct SharedStateInMemoryTests {
  @Test func tabSelection() async {
    let store = TestStore(initialState: SharedStateTabs.State(stats: .inMemory("stats"))) {
      SharedStateTabs()
    }
    await store.send(.selectTab(.profile)) {
      $0.currentTab = .profile
    }
    await store.send(.selectTab(.counter)) {
      $0.currentTab = .counter
    }
  }

  @Test func sharedCounts() async {
    let store = TestStore(initialState: SharedStateTabs.State(stats: .inMemory("stats"))) {
      SharedStateTabs()
    }
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.$stats.withLock { $0.increment() }
    }
    await store.send(.counter(.decrementButtonTapped)) {
      $0.counter.$stats.withLock { $0.decrement() }
    }
    await store.send(.profile(.resetStatsButtonTapped)) {
      $0.profile.$stats.withLock { $0 = Stats() }
    }
  }

  @Test func alert() async {
    let store = TestStore(initialState: SharedStateTabs.State(stats: .inMemory("stats"))) {
      SharedStateTabs()
    }
    await store.send(.counter(.isPrimeButtonTapped)) {
      $0.counter.alert = AlertState(title: "👎 The number 0 is not prime :(")
    }
  }

  @Test func theProfileTabShowsTheCountersChangeAndEitherMayAssertIt() async {
    let store = TestStore(initialState: SharedStateTabs.State(stats: .inMemory("stats"))) {
      SharedStateTabs()
    }
    await store.send(.counter(.incrementButtonTapped)) {
      // The tabs hold one value: asserting it through the profile tab asserts the counter's too.
      $0.profile.$stats.withLock { $0.increment() }
    }
    #expect(store.state.profile.stats.count == 1)
    await store.send(.counter(.isPrimeButtonTapped)) {
      $0.counter.alert = AlertState(title: "👎 The number 1 is not prime :(")
    }
  }

  @Test func aChangeLeftUnassertedFailsShowingEveryPlaceThatHoldsIt() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: SharedStateTabs.State(stats: .inMemory("stats")), reducer: { SharedStateTabs() },
      reporter: failures.reporter)
    await store.send(.counter(.incrementButtonTapped))
    #expect(failures.messages.count == 1)
    let message = failures.messages.first ?? ""
    #expect(message.hasPrefix("A state change does not match expectation: …"), "\(message)")
    #expect(message.contains("-       count: 0,\n+       count: 1,"), "\(message)")
    #expect(message.components(separatedBy: "+       count: 1,").count == 3, "both tabs show it: \(message)")
  }
}

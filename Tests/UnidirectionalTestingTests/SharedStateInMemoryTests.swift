import Testing
import Unidirectional
import UnidirectionalTesting

/// Two tabs holding one in-memory value (TCA's in-memory case study; its own three tests are in
/// `SharedStateCaseStudyTests`): either tab may assert the change, and a change left unasserted fails showing every
/// place in the state that holds the value.
@MainActor
@Suite struct SharedStateInMemoryTests {
  @Test func theProfileTabShowsTheCountersChangeAndEitherMayAssertIt() async {
    let store = TestStore(initialState: SharedStateTabs.State(stats: .inMemory("stats"))) { SharedStateTabs() }
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

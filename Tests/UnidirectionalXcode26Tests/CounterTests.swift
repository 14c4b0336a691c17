import Testing
import Unidirectional
import UnidirectionalTesting

/// `Counter` in a target with Xcode 26's settings: a clock-driven effect and an effect's action, as in Swift 6 mode.
struct CounterTests {
  @Test func theTimerTicksOncePerSecondOfTheTestClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.startTimer) { $0.isTimerOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 1 }
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.count = 2 }
    await store.receive(.tick) { $0.count = 3 }
    await store.send(.stopTimer) { $0.isTimerOn = false }
  }

  @Test func aFactArrivesFromAnEffect() async {
    let store = TestStore(initialState: Counter.State(count: 3)) { Counter() }
    await store.send(.fetchFact)
    await store.receive(Counter.Action.factLoaded) { $0.fact = "3 is a number" }
  }
}

import Testing
import Unidirectional
import UnidirectionalTesting

/// The article "Exploring interleavings" in a target with Xcode 26's settings: an invariant that reads the state's
/// fields, checked after every action of every schedule.
struct ExploringInterleavingsTests {
  @Test func theTimerNeverTicksOnceStopped() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 2)) {
      let clock = TestClock()
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.clock = clock
      }
      store.exhaustivity = .off
      store.checkEveryState { state, action in
        #expect(state.isTimerOn || action != .tick, "a tick after the timer stopped")
        #expect(state.mayTick || action != .tick)
      }
      await store.send(.startTimer)
      await clock.advance(by: .seconds(1))
      await store.send(.stopTimer)
      await clock.advance(by: .seconds(1))
      await store.skipReceivedActions(strict: false)
    }
    #expect(report.failingSchedule == nil)
  }
}

extension Counter.State {
  /// Read by an invariant as a test in another module reads a feature's state: isolated to the main actor, as
  /// everything in this target is (a stored property is not only within its own module).
  var mayTick: Bool { isTimerOn }
}

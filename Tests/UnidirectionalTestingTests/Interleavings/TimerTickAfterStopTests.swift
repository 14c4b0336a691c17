import Testing
import Unidirectional
import UnidirectionalTesting

/// A timer tick after stop: a delayed stop and a tick come due at the same instant, and the stop only lowers a flag.
@MainActor
struct TimerTickAfterStopTests {
  struct Ticker: Reducer {
    struct State: Equatable {
      var isTimerOn = false
      var ticks = 0
    }
    enum Action: Equatable { case start, stop(after: Duration), stopped, tick }
    enum CancelID { case timer }
    let clock: TestClock
    /// The fix: stopping cancels the timer, so a tick due at the same instant never arrives.
    let cancelsTheTimer: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        state.isTimerOn = true
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            send(.tick)
          }
        }
        .cancellable(id: CancelID.timer)
      case let .stop(delay):
        return .run { [clock] send in
          try await clock.sleep(for: delay)
          send(.stopped)
        }
      case .stopped:
        state.isTimerOn = false
        return cancelsTheTimer ? .cancel(id: CancelID.timer) : .none
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  static func stopAtTheSecondTheTimerTicks(fixed: Bool) async {
    let clock = TestClock()
    let store = TestStore(initialState: Ticker.State()) { Ticker(clock: clock, cancelsTheTimer: fixed) }
    store.exhaustivity = .off
    store.checkEveryState { state, action in
      #expect(state.isTimerOn || action != .tick, "a tick after the timer stopped")
    }
    await store.send(.start)
    await clock.advance(by: .milliseconds(500))
    await store.send(.stop(after: .milliseconds(500)))
    await clock.advance(by: .milliseconds(500))
    await store.skipInFlightEffects(strict: false)
    await store.skipReceivedActions(strict: false)
  }

  @Test func theExplorerFindsTheTickAfterStop() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: TestFailures().reporter) {
      await Self.stopAtTheSecondTheTimerTicks(fixed: false)
    }
    #expect(report.failingSchedule != nil)
    #expect(report.failures.contains { $0.contains("a tick after the timer stopped") })
  }

  @Test func thePlainTestStoreRunsOneOrderAndMissesIt() async {
    await Self.stopAtTheSecondTheTimerTicks(fixed: false)
  }

  @Test func theFixedFeaturePassesEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      await Self.stopAtTheSecondTheTimerTicks(fixed: true)
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }
}

import Unidirectional
import UnidirectionalTesting
import XCTest

final class TestStoreTests: XCTestCase {
  func testTimerFlowWithATestClock() async {
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
    await store.finish()
  }

  func testReceiveByCaseAndByPredicate() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.twoFacts)
    await store.receive(Counter.Action.factLoadedCase) { $0.fact = "one" }
    await store.receive({ $0 == .factLoaded("two") }) { $0.fact = "two" }
  }

  func testStateCapturedByAnEffectIsTheStateAtSendTime() async {
    let store = TestStore(initialState: Counter.State(count: 41)) { Counter() }
    await store.send(.increment) { $0.count = 42 }
    await store.send(.fetchFact)
    await store.receive(.factLoaded("42 is a number")) { $0.fact = "42 is a number" }
  }

  func testSkipReceivedActionsTakesTheirState() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.twoFacts)
    await store.skipReceivedActions()
    XCTAssertEqual(store.state.fact, "two")
    await store.send(.increment) { $0.count = 1 }
  }

  func testSkipInFlightEffectsStopsWaitingForThemButTheirActionsMustStillBeReceived() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.startTimer) { $0.isTimerOn = true }
    await store.skipInFlightEffects()
    // Not cancelled (as in TCA): the timer still ticks, and each tick is an action to receive.
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.count = 1 }
    await store.receive(.tick) { $0.count = 2 }
    await store.send(.stopTimer) { $0.isTimerOn = false }
    await store.finish()
  }

  func testAnInFlightEffectSkippedIsNotReportedAtTheEnd() async {
    let failures = TestFailures()
    let clock = TestClock()
    do {
      let store = TestStore(
        initialState: Counter.State(), reducer: { Counter() }, withDependencies: { $0.clock = clock },
        reporter: failures.reporter)
      await store.send(.startTimer) { $0.isTimerOn = true }
      await store.skipInFlightEffects()
    }
    XCTAssertEqual(failures.messages, [])
    XCTAssertEqual(failures.skippedAssertionMessages.count, 1)
    XCTAssertTrue(
      failures.skippedAssertionMessages[0].contains(
        "1 in-flight effect was skipped, started by:\n  • Counter.Action.startTimer"),
      failures.skippedAssertionMessages[0])
  }

  func testCancellingTheSendHandleEndsTheEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.clock = clock
    }
    let task = await store.send(.startTimer) { $0.isTimerOn = true }
    XCTAssertTrue(task.isRunning)
    await task.cancel()
    XCTAssertFalse(task.isRunning)
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  func testNonExhaustiveModeChecksOnlyWhatIsAsserted() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.clock = clock
    }
    store.exhaustivity = .off
    await store.send(.startTimer)
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.count = 1 }  // the first match; the other two ticks are not asserted
    await store.send(.increment) { $0.count = 4 }  // the unasserted ticks were applied: 3 + 1
    // The timer still runs and nothing else was asserted: fine when not exhaustive.
  }

  func testReceiveWaitsForEffectsThatLeaveTheRuntime() async {
    struct HopsToMain: Reducer {
      func reduce(into state: inout Int, action: Int) -> Effect<Int> {
        guard action == 0 else {
          state = action
          return .none
        }
        return .run { send in
          let value = await MainActor.run { 7 }
          send(value)
        }
      }
    }
    let store = TestStore(initialState: 0) { HopsToMain() }
    await store.send(0)
    await store.receive(7) { $0 = 7 }
  }
}

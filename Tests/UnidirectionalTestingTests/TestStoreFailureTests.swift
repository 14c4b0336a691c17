import Unidirectional
import UnidirectionalTesting
import XCTest

/// Every way a TestStore fails a test, with the message it reports.
final class TestStoreFailureTests: XCTestCase {
  private func makeStore(
    clock: TestClock = TestClock(), initialState: Counter.State = Counter.State(), failures: TestFailures
  ) -> TestStore<Counter.State, Counter.Action> {
    TestStore(
      initialState: initialState, reducer: { Counter() }, withDependencies: { $0.clock = clock },
      reporter: failures.reporter)
  }

  func testAWrongMutationShowsAFieldByFieldDiff() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.increment) { $0.count = 2 }
    XCTAssertEqual(
      failures.messages,
      [
        """
        A state change does not match expectation: …

          Counter.State(
        -   count: 2,
        +   count: 1,
            isTimerOn: false,
            fact: nil
          )

        (Expected: −, Actual: +)
        """
      ])
  }

  func testAMissingAssertionIsAMismatch() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.increment)
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("-   count: 0,\n+   count: 1,"), failures.messages[0])
  }

  func testAnAssertionThatChangesNothingIsReported() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.noop) { $0.count = 0 }
    XCTAssertEqual(
      failures.messages,
      [
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to state is expected, \
        omit the trailing closure.
        """
      ])
  }

  func testAnAssertionThatThrowsIsReported() async {
    struct Oops: Error {}
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.increment) { _ in throw Oops() }
    XCTAssertEqual(failures.messages, ["Threw error in the assertion of send: Oops()"])
  }

  func testReceivedActionsMustBeHandledBeforeSendingAndStayToBeReceived() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.twoFacts)
    await store.send(.noop)
    XCTAssertEqual(
      failures.messages,
      [
        """
        Must handle 2 received actions before sending an action: …

        Unhandled actions:
          • Counter.Action.factLoaded("one")
          • Counter.Action.factLoaded("two")
        """,
        // The sent action's state includes what the unreceived actions did.
        """
        A state change does not match expectation: …

          Counter.State(
            count: 0,
            isTimerOn: false,
        -   fact: nil
        +   fact: "two"
          )

        (Expected: −, Actual: +)
        """,
      ])
    // As in TCA, the pending actions were not discarded: receiving them now passes.
    await store.receive(.factLoaded("one")) { $0.fact = "one" }
    await store.receive(.factLoaded("two")) { $0.fact = "two" }
    XCTAssertEqual(failures.messages.count, 2)
  }

  func testAReceivedActionThatIsNotTheExpectedOne() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.twoFacts)
    await store.receive(.factLoaded("two")) { $0.fact = "two" }
    await store.skipReceivedActions()
    XCTAssertEqual(failures.messages.count, 1)
    // `factLoaded("two")` arrives after the action received instead, as TCA says.
    XCTAssertTrue(
      failures.messages[0].hasPrefix("Received unexpected action before this one: …"), failures.messages[0])
    XCTAssertTrue(
      failures.messages[0].contains("-   \"two\"") || failures.messages[0].contains("\"two\""), failures.messages[0])
    XCTAssertTrue(failures.messages[0].hasSuffix("(Expected: −, Received: +)"), failures.messages[0])
  }

  func testAReceiveThatNeverComesFailsAtOnceWhenNoEffectRuns() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.increment) { $0.count = 1 }
    await store.receive(.tick)
    XCTAssertEqual(
      failures.messages, ["Expected to receive Counter.Action.tick, but received none: no effect is running."])
  }

  func testAReceiveThatNeedsAClockAdvanceFailsAtOnce() async {
    let failures = TestFailures()
    let clock = TestClock()
    let store = makeStore(clock: clock, failures: failures)
    await store.send(.startTimer) { $0.isTimerOn = true }
    await store.receive(.tick)
    await store.skipInFlightEffects()
    XCTAssertEqual(
      failures.messages,
      [
        """
        Expected to receive Counter.Action.tick, but received none: 1 effect is running, but all are suspended on a \
        TestClock or waiting for each other. Advance the clock first.
        """
      ])
  }

  func testUnassertedReceivedActionsFailFinish() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.fetchFact)
    await store.finish()
    XCTAssertEqual(
      failures.messages,
      [
        """
        The store received 1 unexpected action: …

        Unhandled actions:
          • Counter.Action.factLoaded("0 is a number")

        To fix, assert them with receive, or skip them with skipReceivedActions().
        """
      ])
  }

  func testAnEffectStillRunningFailsFinish() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.send(.startTimer) { $0.isTimerOn = true }
    await store.finish()
    XCTAssertEqual(
      failures.messages,
      [
        """
        An effect returned for the action Counter.Action.startTimer is still running. It must complete before the \
        end of the test. …

        To fix, send an action that makes it finish or cancels it, advance the TestClock it sleeps on, or call \
        skipInFlightEffects().
        """
      ])
  }

  func testAStoreReleasedWithARunningEffectFails() async {
    let failures = TestFailures()
    do {
      let store = makeStore(failures: failures)
      await store.send(.startTimer) { $0.isTimerOn = true }
    }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages[0].hasPrefix("An effect returned for the action Counter.Action.startTimer is still running."),
      failures.messages[0])
  }

  func testSkipsWithNothingToSkipFailWhenStrict() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    await store.skipReceivedActions()
    await store.skipInFlightEffects()
    await store.skipReceivedActions(strict: false)
    await store.skipInFlightEffects(strict: false)
    XCTAssertEqual(
      failures.messages, ["There were no received actions to skip.", "There were no in-flight effects to skip."])
  }

  func testNonExhaustiveModeStillFailsAWrongAssertion() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    store.exhaustivity = .off
    await store.send(.increment) { $0.count = 5 }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("-   count: 5,\n+   count: 1,"), failures.messages[0])
  }

  func testFailuresPointAtTheCallThatFailed() async {
    let failures = TestFailures()
    let store = makeStore(failures: failures)
    let line: UInt = #line + 1
    await store.send(.increment) { $0.count = 3 }
    XCTAssertEqual(failures.all.first?.line, line)
    XCTAssertEqual("\(failures.all.first?.fileID ?? "")", "UnidirectionalTestingTests/TestStoreFailureTests.swift")
  }
}

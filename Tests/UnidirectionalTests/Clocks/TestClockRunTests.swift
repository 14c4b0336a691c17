import Testing
import Unidirectional
import UnidirectionalTesting

// swift-clocks' `TestClock.run(timeout:)`: every sleep until none is left, or a runtime issue once the timeout of
// real time has passed while an effect keeps sleeping. Ported from swift-clocks' `TestClockTests`
// (`testRun`, `testRunWithTimeout`).

private struct Countdown: Reducer {
  struct State: Equatable { var remaining = 3 }
  enum Action: Equatable, Sendable { case start, tick, startForever }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock, remaining = state.remaining] send in
        for _ in 0..<remaining {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
    case .tick:
      state.remaining -= 1
      return .none
    case .startForever:
      return .run { [clock] _ in
        while true { try await clock.sleep(for: .seconds(1)) }
      }
    }
  }
}

@MainActor
@Suite struct TestClockRunTests {
  @Test func runsEverySleepUntilNoneIsLeft() async {
    let clock = TestClock()
    let store = TestStore(initialState: Countdown.State()) {
      Countdown()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.start)
    await clock.run(timeout: .seconds(5))
    await store.receive(.tick) { $0.remaining = 2 }
    await store.receive(.tick) { $0.remaining = 1 }
    await store.receive(.tick) { $0.remaining = 0 }
    #expect(clock.now.offset == .seconds(3))
  }

  @Test func anEffectThatNeverStopsSleepingIsAnIssueAfterTheTimeout() async {
    let clock = TestClock()
    let store = TestStore(initialState: Countdown.State()) {
      Countdown()
    } withDependencies: {
      $0.clock = clock
    }
    let task = await store.send(.startForever)
    let issues = LockIsolated<[String]>([])
    await withDependencies {
      $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
    } operation: {
      await clock.run(timeout: .milliseconds(20))
    }
    #expect(issues.value.count == 1)
    #expect(issues.value.first?.contains("Expected all sleeps to finish") == true, "\(issues.value)")
    #expect(clock.now.offset > .seconds(1))
    await task.cancel()
  }
}

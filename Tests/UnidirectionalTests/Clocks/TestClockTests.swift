import Unidirectional
import XCTest

final class TestClockTests: XCTestCase {
  /// Runs `body` as a task on `runtime`, the way a TestStore runs effects.
  private func start(
    on runtime: TestRuntime, _ body: @escaping @Sendable () async throws -> Void
  ) -> Task<Void, any Error> {
    Task(executorPreference: runtime) {
      try await TestRuntime.$current.withValue(runtime) { try await body() }
    }
  }

  func testSleepersWakeInDeadlineOrderAndOnlyWhenDue() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let woken = Collected<Int>()
    for (name, seconds) in [(3, 3), (1, 1), (2, 2)] {
      _ = start(on: runtime) {
        try await clock.sleep(for: .seconds(seconds))
        woken.append(name)
      }
    }
    runtime.runUntilIdle()
    XCTAssertEqual(clock.sleeperCount, 3)
    await clock.advance(by: .milliseconds(999))
    XCTAssertEqual(woken.all, [])
    await clock.advance(by: .milliseconds(1))
    XCTAssertEqual(woken.all, [1])
    await clock.advance(by: .seconds(5))
    XCTAssertEqual(woken.all, [1, 2, 3])
    XCTAssertEqual(clock.now.offset, .seconds(6))
  }

  func testASleepUntilNowWaitsForTheNextAdvanceEvenAZeroOne() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let woken = Collected<String>()
    _ = start(on: runtime) {
      try await clock.sleep(for: .zero)
      woken.append("zero")
    }
    _ = start(on: runtime) {
      try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
      woken.append("past")
    }
    runtime.runUntilIdle()
    XCTAssertEqual(woken.all, ["past"], "only a deadline strictly in the past returns at once")
    XCTAssertEqual(clock.sleeperCount, 1)
    await clock.advance(by: .zero)
    XCTAssertEqual(woken.all, ["past", "zero"])
    XCTAssertEqual(clock.now.offset, .zero)
  }

  func testEqualDeadlinesWakeInTheOrderTheyWentToSleep() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let woken = Collected<Int>()
    for index in 0..<5 {
      _ = start(on: runtime) {
        try await clock.sleep(for: .seconds(1))
        woken.append(index)
      }
    }
    runtime.runUntilIdle()
    await clock.advance(by: .seconds(1))
    XCTAssertEqual(woken.all, [0, 1, 2, 3, 4])
  }

  func testASleeperThatSleepsAgainInsideTheWindowWakesInTheSameAdvance() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let woken = Collected<String>()
    _ = start(on: runtime) {
      for tick in 1...3 {
        try await clock.sleep(for: .seconds(1))
        woken.append("tick \(tick) at \(clock.now.offset)")
      }
    }
    _ = start(on: runtime) {
      try await clock.sleep(for: .milliseconds(2500))
      woken.append("other at \(clock.now.offset)")
    }
    runtime.runUntilIdle()
    await clock.advance(by: .seconds(3))
    XCTAssertEqual(
      woken.all,
      ["tick 1 at 1.0 seconds", "tick 2 at 2.0 seconds", "other at 2.5 seconds", "tick 3 at 3.0 seconds"])
  }

  func testCancellingASleeperThrowsAndRemovesIt() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let outcome = Collected<String>()
    let task = start(on: runtime) {
      do {
        try await clock.sleep(for: .seconds(1))
        outcome.append("woke")
      } catch is CancellationError {
        outcome.append("cancelled")
      }
    }
    runtime.runUntilIdle()
    task.cancel()
    runtime.runUntilIdle()
    XCTAssertEqual(outcome.all, ["cancelled"])
    XCTAssertEqual(clock.sleeperCount, 0)
    await clock.advance(by: .seconds(1))
    XCTAssertEqual(outcome.all, ["cancelled"])
  }

  func testRunAdvancesUntilNoSleeperIsLeft() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let woken = Collected<Int>()
    _ = start(on: runtime) {
      try await clock.sleep(for: .seconds(10))
      woken.append(10)
      try await clock.sleep(for: .seconds(5))
      woken.append(15)
    }
    runtime.runUntilIdle()
    await clock.run()
    XCTAssertEqual(woken.all, [10, 15])
    XCTAssertEqual(clock.now.offset, .seconds(15))
  }

  func testAdvanceToAnEarlierInstantDoesNotMoveTimeBackwards() async {
    let clock = TestClock()
    await clock.advance(by: .seconds(2))
    await clock.advance(to: TestClock.Instant(offset: .seconds(1)))
    XCTAssertEqual(clock.now.offset, .seconds(2))
  }

  func testSleepingUntilThePastReturnsAtOnce() async throws {
    let clock = TestClock(now: TestClock.Instant(offset: .seconds(5)))
    try await clock.sleep(until: TestClock.Instant(offset: .seconds(1)))
    XCTAssertEqual(clock.sleeperCount, 0)
  }

  func testImmediateClockMovesNowToEachDeadline() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(3))
    try await clock.sleep(for: .seconds(2))
    XCTAssertEqual(clock.now.offset, .seconds(5))
  }

  func testTenThousandSleepersAreAllReleasedByOneAdvance() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let woken = Collected<Int>()
    for index in 0..<10_000 {
      _ = start(on: runtime) {
        try await clock.sleep(for: .milliseconds(10_000 - index))
        woken.append(index)
      }
    }
    runtime.runUntilIdle()
    await clock.advance(by: .seconds(10))
    XCTAssertEqual(woken.all.count, 10_000)
    XCTAssertEqual(woken.all.first, 9_999, "the earliest deadline woke first")
    XCTAssertEqual(woken.all.last, 0)
  }
}

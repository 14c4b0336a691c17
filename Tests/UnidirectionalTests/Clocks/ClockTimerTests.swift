import Unidirectional
import UnidirectionalTesting
import XCTest

final class ClockTimerTests: XCTestCase {
  func testATimerTicksEveryIntervalOnATestClockUntilCancelled() async {
    let clock = TestClock()
    let store = TestStore(initialState: [Duration]()) { Ticker(clock: clock, slowFirstTick: false) }
    await store.send(.start)
    await clock.advance(by: .seconds(1))
    await clock.advance(by: .seconds(1))
    await store.receive(.tick(.seconds(2))) { $0 = [.seconds(2)] }
    await clock.advance(by: .seconds(4))
    await store.receive(.tick(.seconds(4))) { $0.append(.seconds(4)) }
    await store.receive(.tick(.seconds(6))) { $0.append(.seconds(6)) }
    await store.send(.stop)
    await clock.advance(by: .seconds(10))
  }

  func testTicksASlowConsumerMissedAreSkippedNotDeliveredInABurst() async {
    let clock = TestClock()
    let store = TestStore(initialState: [Duration]()) { Ticker(clock: clock, slowFirstTick: true) }
    await store.send(.start)
    await clock.advance(by: .seconds(2))
    await store.receive(.tick(.seconds(2))) { $0 = [.seconds(2)] }
    // The consumer was busy until 9 s: the ticks at 4 and 6 s are gone; one late tick, then the cadence again.
    await clock.advance(by: .seconds(7))
    await store.receive(.tick(.seconds(9))) { $0.append(.seconds(9)) }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick(.seconds(10))) { $0.append(.seconds(10)) }
    await store.send(.stop)
  }

  func testATimerEndsWhenItsTaskIsCancelled() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let task = Task(executorPreference: runtime) {
      var count = 0
      for await _ in clock.timer(interval: .seconds(1)) { count += 1 }
      return count
    }
    runtime.runUntilIdle()
    XCTAssertEqual(clock.sleeperCount, 1)
    task.cancel()
    runtime.runUntilIdle()
    let count = await task.value
    XCTAssertEqual(count, 0)
  }
}

private struct Ticker: Reducer {
  enum Action: Equatable, Sendable { case start, stop, tick(Duration) }
  let clock: TestClock
  let slowFirstTick: Bool

  func reduce(into state: inout [Duration], action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock, slowFirstTick] send in
        var isFirst = true
        for await _ in clock.timer(interval: .seconds(2)) {
          send(.tick(clock.now.offset))
          if isFirst, slowFirstTick { try await clock.sleep(for: .seconds(7)) }
          isFirst = false
        }
      }
      .cancellable(id: "timer")
    case .stop:
      return .cancel(id: "timer")
    case let .tick(at):
      state.append(at)
      return .none
    }
  }
}

final class TaskNeverTests: XCTestCase {
  func testNeverSuspendsUntilCancelledAndATestStoreKnowsNothingWillHappen() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: 0,
      reducer: {
        Reduce<Int, Bool> { _, start in
          start ? .run { _ in try await Task.never() }.cancellable(id: "forever") : .cancel(id: "forever")
        }
      }, reporter: failures.reporter)
    let started = ContinuousClock.now
    let task = await store.send(true)
    XCTAssertTrue(task.isRunning)
    await task.finish(timeout: .seconds(30))
    XCTAssertLessThan(started.duration(to: .now), .seconds(10), "the store did not wait for its timeout")
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("suspended on a TestClock or waiting"), failures.messages[0])
    await store.send(false)
    XCTAssertFalse(task.isRunning)
  }

  func testNeverThrowsCancellationErrorWhenCancelled() async {
    let runtime = TestRuntime()
    let task = Task(executorPreference: runtime) { () -> String in
      do {
        try await Task.never()
      } catch is CancellationError {
        return "cancelled"
      } catch {
        return "\(error)"
      }
    }
    runtime.runUntilIdle()
    task.cancel()
    runtime.runUntilIdle()
    let result = await task.value
    XCTAssertEqual(result, "cancelled")
  }
}

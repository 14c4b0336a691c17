import Testing
import Unidirectional

/// One schedule runs one way: the sleepers of one deadline are all resumed before any of them runs, and a sleeper
/// cancelled by another one woken at the same deadline throws, as it does with swift-clocks.
struct TestClockDeterminismTests {
  /// Starts `body` on `runtime`, as a store starts an effect.
  private func start(on runtime: TestRuntime, _ body: @escaping @Sendable () async throws -> Void) -> Task<
    Void, any Error
  > {
    Task(executorPreference: runtime) {
      try await TestRuntime.$current.withValue(runtime) { try await body() }
    }
  }

  @Test func sleepersOfOneDeadlineAllRunBeforeWhatTheFirstOneStarts() async {
    // Racy before: the first resume let a background drain run the first sleeper and its follow-up before the
    // second sleeper was resumed (48 of 300 runs).
    for _ in 0..<300 {
      let clock = TestClock()
      let runtime = TestRuntime()
      let order = Collected<String>()
      _ = start(on: runtime) {
        try await clock.sleep(for: .seconds(1))
        order.append("first")
        _ = Task(executorPreference: runtime) { order.append("follow-up of first") }
      }
      _ = start(on: runtime) {
        try await clock.sleep(for: .seconds(1))
        order.append("second")
      }
      runtime.runUntilIdle()
      await clock.advance(by: .seconds(1))
      runtime.runUntilIdle()
      #expect(order.all == ["first", "second", "follow-up of first"])
    }
  }

  @Test func fiftySleepersOfOneDeadlineRunInTheOrderTheyWentToSleep() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let order = Collected<Int>()
    for index in 0..<50 {
      _ = start(on: runtime) {
        try await clock.sleep(for: .seconds(1))
        order.append(index)
        _ = Task(executorPreference: runtime) { order.append(100 + index) }
      }
    }
    runtime.runUntilIdle()
    await clock.advance(by: .seconds(1))
    runtime.runUntilIdle()
    #expect(order.all == Array(0..<50) + Array(100..<150))
  }

  @Test func aSleeperCancelledByAnotherWokenAtTheSameDeadlineThrows() async {
    for _ in 0..<50 {
      let clock = TestClock()
      let runtime = TestRuntime()
      let outcome = Collected<String>()
      let victim = LockIsolated<Task<Void, any Error>?>(nil)
      _ = start(on: runtime) {
        try await clock.sleep(for: .seconds(1))
        victim.value?.cancel()
      }
      victim.setValue(
        start(on: runtime) {
          do {
            try await clock.sleep(for: .seconds(1))
            outcome.append("returned, cancelled: \(Task.isCancelled)")
          } catch is CancellationError {
            outcome.append("threw CancellationError")
          }
        })
      runtime.runUntilIdle()
      await clock.advance(by: .seconds(1))
      runtime.runUntilIdle()
      #expect(outcome.all == ["threw CancellationError"])
    }
  }
}

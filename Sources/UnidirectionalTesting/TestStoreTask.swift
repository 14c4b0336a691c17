import Unidirectional

/// The handle `TestStore.send` returns: the effects the action started (and everything they caused), run on the
/// test runtime.
///
/// ```swift
/// let task = await store.send(.onAppear)   // starts a long-living effect
/// // … assertions …
/// await task.cancel()                      // as if the view went away
/// ```
public struct TestStoreTask: Sendable {
  let task: StoreTask
  let runtime: TestRuntime
  let timeout: Duration
  let reporter: TestReporter

  /// Cancels the effects (and the effects started by the actions they fed back), then runs them until they have
  /// wound down.
  nonisolated(nonsending) public func cancel() async {
    task.cancel()
    _ = await settle(within: timeout)
  }

  /// Waits until the effects have finished, failing the test if they have not after `timeout` (the store's
  /// timeout by default) or if they wait on a `TestClock` that nobody will advance.
  nonisolated(nonsending) public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let timeout = timeout ?? self.timeout
    guard let reason = await settle(within: timeout) else { return }
    reporter.report(
      TestFailure(
        message: "Expected the task to finish, but it is still in flight: \(reason)", fileID: fileID,
        filePath: filePath, line: line, column: column))
  }

  /// Whether the effects are still running.
  public var isRunning: Bool {
    // Asking needs no effect to progress: racing calls may stay waiting.
    _ = runtime.runUntilIdle(defersCompletions: true)
    return task.isRunning
  }

  /// Whether the effects have been cancelled or have finished.
  public var isCancelled: Bool { !isRunning }

  /// Runs the effects until they finish; returns why they did not, if they did not.
  nonisolated(nonsending) private func settle(within timeout: Duration) async -> String? {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    runtime.hold()
    defer { runtime.release() }
    for _ in 0..<100_000 {
      // Racing calls complete until these effects are done; others may stay waiting.
      runtime.runUntilIdle(completingRacingCallsUntil: { !task.isRunning })
      if !task.isRunning { return nil }
      if runtime.isQuiescent {
        return "its effects are suspended on a TestClock or waiting for each other. Advance the clock first."
      }
      let remaining = ContinuousClock.now.duration(to: deadline)
      let workArrived = remaining > .zero ? await runtime.waitForWork(timeout: remaining) : false
      if !workArrived {
        return "timed out after \(timeout) waiting for effects running outside the test runtime."
      }
    }
    return "its effects kept running."
  }
}

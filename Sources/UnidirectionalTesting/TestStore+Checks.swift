import Unidirectional

// Waiting for effects, and the checks made at the end of a test.
extension TestStore {
  // MARK: Checks

  /// Runs effects until something may have changed (a job ran, or more than `knownReceived` actions are waiting to
  /// be asserted), or returns why nothing will change. Racing calls complete until `isSatisfied`.
  nonisolated(nonsending) func waitForEffects(
    until deadline: ContinuousClock.Instant, timeout: Duration, knownReceived: Int,
    completingUntil isSatisfied: () -> Bool
  ) async -> String? {
    if runtime.runUntilIdle(completingRacingCallsUntil: isSatisfied) > 0 { return nil }
    if journal.received.count > knownReceived { return nil }
    let running = store.runningEffects.count
    if running == 0 { return "no effect is running." }
    if runtime.isSpinning {
      return "racing calls answered without end, and wait from now on (see the next failure)."
    }
    if runtime.isQuiescent {
      return """
        \(running) effect\(running == 1 ? " is" : "s are") running, but all are suspended on a TestClock or \
        waiting for each other. Advance the clock first.
        """
    }
    let remaining = ContinuousClock.now.duration(to: deadline)
    let workArrived = remaining > .zero ? await runtime.waitForWork(timeout: remaining) : false
    if !workArrived {
      return "timed out after \(timeout) waiting for effects running outside the test runtime."
    }
    return nil
  }

  /// Takes `steps` (the oldest received ones) as asserted, reporting them in `.off(showSkippedAssertions: true)`.
  func skipReceived(_ steps: [Step<State, Action>], at location: Location) {
    guard let last = steps.last else { return }
    reportSkipped(
      """
      \(steps.count) received action\(steps.count == 1 ? " was" : "s were") skipped:
      \(list(steps.map(\.action)))
      """, at: location)
    journal.removeReceived(steps.count)
    state = last.state
    sharedChanges.skip(through: last.sharedStep)
  }

  func checkNoUnassertedReceivedActions(at location: Location) {
    let pending = journal.received
    guard !pending.isEmpty else { return }
    report(
      """
      The store received \(pending.count) unexpected action\(pending.count == 1 ? "" : "s"): …

      Unhandled actions:
      \(list(pending.map(\.action)))

      To fix, assert them with receive, or skip them with skipReceivedActions().
      """, at: location)
    journal.removeReceived(pending.count)
  }

  /// Shared values changed since the last assertion (by an effect that outlived it, or by their file) must be
  /// asserted, with `assert`, before the test ends.
  func checkNoUnassertedSharedChanges(at location: Location) {
    guard sharedChanges.hasChanges else { return }
    defer { sharedChanges.reset() }
    let difference = diff(state, state, asserting: sharedChanges) ?? "  \(customDump(state))"
    report(
      """
      Test store finished before asserting against changes to shared state: …

      \(difference)

      (Expected: −, Actual: +)

      Assert them with store.assert { … } at the end of the test.
      """, at: location)
  }

  func checkNoRunningEffects(at location: Location) {
    for effect in store.runningEffects where !effect.isCancelled {
      report(
        """
        An effect returned for the action \(describe(effect.action)) is still running. It must complete \
        before the end of the test. …

        To fix, send an action that makes it finish or cancels it, advance the TestClock it sleeps on, or \
        call skipInFlightEffects().
        """, at: location)
    }
  }

}

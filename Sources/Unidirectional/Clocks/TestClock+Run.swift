extension TestClock {
  /// Advances to each next deadline until no task sleeps on this clock, as swift-clocks' `run(timeout:)` does: an
  /// effect that never stops sleeping (a timer nobody cancels) is reported as a runtime issue once `timeout` of
  /// real time has passed, instead of hanging the test.
  ///
  /// ```swift
  /// await store.send(.startTapped)
  /// await clock.run()  // every sleep of the effect, however long
  /// await store.receive(.finished) { $0.isRunning = false }
  /// ```
  public func run(
    timeout: Duration = .milliseconds(50),
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) async {
    let start = ContinuousClock.now
    while sleeperCount > 0 {
      guard ContinuousClock.now - start < timeout else {
        reportIssue(
          """
          Expected all sleeps to finish, but \(sleeperCount) \(sleeperCount == 1 ? "is" : "are") still sleeping \
          after \(timeout) (at \(now)): cancel the effects that keep sleeping, or advance by a duration instead.
          """, fileID: fileID, line: line)
        return
      }
      await run(limit: 1)
    }
  }
}

import Unidirectional

// Ending a test, skipping what it chose not to assert, and scoped settings.
extension TestStore {
  // MARK: Finishing

  /// Waits for every effect to finish, then asserts that nothing was left unasserted.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for effects running outside the test runtime; ``timeout`` by default.
  ///   - fileID: The file failures are reported in (the caller's by default), as Swift Testing names it.
  ///   - filePath: The same file's full path, as XCTest names it.
  ///   - line: The line failures are reported at.
  ///   - column: The column failures are reported at.
  nonisolated(nonsending) public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    journal.location.set(location)
    runtime.hold()
    beginExploredStep({ "finish()" }, at: location)
    defer {
      endExploredStep(at: location)
      runtime.release()
      journal.location.set(nil)
    }
    didFinish = true
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now.advanced(by: timeout)
    // Every effect must end: every racing call completes, in the order the explorer chooses.
    for _ in 0..<Self.maximumWaits {
      runtime.runUntilIdle()
      if store.runningEffects.isEmpty { break }
      if await waitForEffects(until: deadline, timeout: timeout, knownReceived: .max, completingUntil: { false })
        != nil
      {
        break
      }
    }
    if exhaustivity == .on {
      checkNoUnassertedReceivedActions(at: location)
      checkNoRunningEffects(at: location)
      checkNoUnassertedSharedChanges(at: location)
    }
  }

  /// Marks every action received so far as asserted, taking the state they produced.
  nonisolated(nonsending) public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    runtime.hold()
    beginExploredStep({ "skipReceivedActions()" }, at: location)
    defer {
      endExploredStep(at: location)
      runtime.release()
    }
    // What a plain test would have received by now: every racing call completes, in the order the explorer chooses
    // (outside an exploration they answer at once).
    runtime.runUntilIdle()
    let pending = journal.received
    if pending.isEmpty {
      if strict { report("There were no received actions to skip.", at: location) }
      return
    }
    skipReceived(pending, at: location)
  }

  /// Stops waiting for the effects running now: they are no longer in flight for `finish` and the end of the test,
  /// but keep running, and the actions they feed back must still be received (as in TCA). Cancel an effect by
  /// sending the action that cancels it, or with the `TestStoreTask` of the send that started it.
  nonisolated(nonsending) public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    runtime.hold()
    beginExploredStep({ "skipInFlightEffects()" }, at: location)
    defer {
      endExploredStep(at: location)
      runtime.release()
    }
    runtime.runUntilIdle()
    let running = store.runningEffects
    if running.isEmpty {
      if strict { report("There were no in-flight effects to skip.", at: location) }
      return
    }
    reportSkipped(
      """
      \(running.count) in-flight effect\(running.count == 1 ? " was" : "s were") skipped, started by:
      \(running.map { "  • " + describe($0.action) }.joined(separator: "\n"))
      """, at: location)
    store.skipRunningEffects()
  }

  // MARK: Scoped settings

  /// Runs `operation` with this store's dependencies changed by `update`, then restores them.
  nonisolated(nonsending) public func withDependencies<R>(
    _ update: (inout DependencyValues) throws -> Void,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = dependencies
    defer { dependencies = previous }
    var updated = previous
    try DependencyValues.configuring { try update(&updated) }
    dependencies = updated
    return try await operation()
  }

  /// Runs `operation` with this store's exhaustivity set to `exhaustivity`, then restores it.
  nonisolated(nonsending) public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    defer { self.exhaustivity = previous }
    self.exhaustivity = exhaustivity
    return try await operation()
  }

}

import Unidirectional

// Receiving the actions effects feed back.
extension TestStore {
  // MARK: Receiving

  /// Asserts that effects fed back `expectedAction` next, and the state it produced.
  ///
  /// - Parameters:
  ///   - expectedAction: The action the test expects an effect to have fed back next.
  ///   - timeout: How long to wait for effects running outside the test runtime; ``timeout`` by default.
  ///   - updateStateToExpectedResult: Changes a copy of the state before the action into the state the test
  ///     expects after it; nil when the action changes nothing.
  ///   - fileID: The file failures are reported in (the caller's by default), as Swift Testing names it.
  ///   - filePath: The same file's full path, as XCTest names it.
  ///   - line: The line failures are reported at.
  ///   - column: The column failures are reported at.
  nonisolated(nonsending) public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      description: describe(expectedAction),
      matching: { $0 == expectedAction },
      mismatch: { received in
        let difference = diff(expectedAction, received) ?? "  \(describe(received))"
        return "\(difference)\n\n(Expected: −, Received: +)"
      },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that effects fed back an action of the case `actionCase` next, and the state it produced.
  nonisolated(nonsending) public func receive<Value>(
    _ actionCase: CasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action of the case \(Value.self)",
      matching: { actionCase.extract($0) != nil },
      mismatch: { received in "  \(describe(received))\n\nExpected an action of the case \(Value.self)." },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that effects fed back an action of the case `actionCase` with `value` next, and the state it produced.
  nonisolated(nonsending) public func receive<Value: Equatable>(
    _ actionCase: CasePath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: describe(actionCase.embed(value)),
      matching: { actionCase.extract($0) == value },
      mismatch: { received in
        let difference = diff(actionCase.embed(value), received) ?? "  \(describe(received))"
        return "\(difference)\n\n(Expected: −, Received: +)"
      },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that effects fed back an action matching `isMatching` next, and the state it produced.
  nonisolated(nonsending) public func receive(
    _ isMatching: @escaping (Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action matching the predicate",
      matching: isMatching,
      mismatch: { "  \(describe($0))\n\nIt does not match the predicate." },
      timeout: timeout,
      assert: updateStateToExpectedResult,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  nonisolated(nonsending) func receive(
    description: String,
    matching: (Action) -> Bool,
    mismatch: (Action) -> String,
    timeout: Duration?,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: Location
  ) async {
    journal.location.set(location)
    runtime.hold()
    beginExploredStep({ "receive(\(ScheduleLabel.brief(description: description)))" }, at: location)
    defer {
      endExploredStep(at: location)
      runtime.release()
      journal.location.set(nil)
    }
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var failure: String?
    // Racing calls complete only until the action is there; the rest may stay waiting past this step.
    let isExhaustive = exhaustivity == .on
    // Received steps stay until this receive takes one: once found, found; steps checked are not checked again.
    var (found, checked) = (false, 0)
    func isReceived() -> Bool {
      guard !found else { return true }
      (found, checked) = withoutActuallyEscaping(matching) {
        journal.hasReceived(matching: isExhaustive ? nil : $0, from: checked)
      }
      return found
    }
    for attempt in 0...Self.maximumWaits {
      runtime.runUntilIdle(completingRacingCallsUntil: isReceived)
      if isReceived() { break }
      if attempt == Self.maximumWaits {
        failure = "effects kept running without sending it."
        break
      }
      failure = await waitForEffects(
        until: deadline, timeout: timeout, knownReceived: journal.received.count, completingUntil: isReceived)
      if failure != nil { break }
    }
    var pending = journal.received
    guard exhaustivity == .on ? !pending.isEmpty : pending.contains(where: { matching($0.action) }) else {
      report(
        "Expected to receive \(description), but received none: \(failure ?? "no effect is running.")", at: location)
      return
    }
    if exhaustivity != .on, let index = pending.firstIndex(where: { matching($0.action) }), index > 0 {
      skipReceived(Array(pending[..<index]), at: location)
      pending = journal.received
    }
    let step = pending[0]
    journal.removeReceived(1)
    if matching(step.action) {
      expect(
        step.state, afterApplying: updateStateToExpectedResult, for: "receive", at: location,
        stackIDsFrom: step.stackIDsBefore, sharedStep: step.sharedStep)
    } else {
      let later = pending.dropFirst().contains { matching($0.action) }
      report(
        "Received unexpected action\(later ? " before this one" : ""): …\n\n\(mismatch(step.action))", at: location)
      state = step.state
      sharedChanges.skip(through: step.sharedStep)
    }
  }

  /// A bound on the waits of one `receive` or `finish`, so an effect that never stops running cannot hang a test.
  static var maximumWaits: Int { 100_000 }

}

import Unidirectional

// Sending actions and asserting the state they produce.
extension TestStore {
  // MARK: Sending

  /// Sends `action`, asserts the state it produces with `updateStateToExpectedResult`, then runs the effects it
  /// started until they suspend (on a `TestClock`, or waiting for something outside the test).
  ///
  /// The closure receives the state as of the last assertion; make it match the state after `action`. Omit it
  /// when the action changes nothing.
  @discardableResult
  nonisolated(nonsending) public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    journal.location.set(location)
    runtime.hold()
    beginExploredStep({ "send(\(ScheduleLabel.brief(action)))" }, at: location)
    defer {
      endExploredStep(at: location)
      runtime.release()
      journal.location.set(nil)
    }
    _ = runtime.runUntilIdle(defersCompletions: true)
    if isDismissed {
      report("Can't send action to dismissed test store.", at: location)
      return TestStoreTask(task: .none, runtime: runtime, timeout: timeout, reporter: reporter)
    }
    let pending = journal.received
    if !pending.isEmpty {
      // As in TCA: the failure is reported, and the received actions stay to be received.
      reportUnlessSkipped(
        """
        Must handle \(pending.count) received action\(pending.count == 1 ? "" : "s") before sending an action: …

        Unhandled actions:
        \(list(pending.map(\.action)))
        """, at: location)
      switch exhaustivity {
      case .on: break
      case .off(showSkippedAssertions: true): skipReceived(pending, at: location)
      case .off(showSkippedAssertions: false): journal.removeReceived(pending.count)
      }
    }
    let stackIDsBefore = journal.stackElementIDs.value.peek()
    // Effects this action starts report their issues here.
    store.dependencies.issueReporter = Self.issueReporter(reporter, current: journal.location, origin: location)
    let task = store.send(action)
    var sentSharedStep: UInt64 = 0
    guard let sentState = journal.takeSentState(sharedStep: &sentSharedStep) else {
      report("The action \(describe(action)) was not reduced: the store was released.", at: location)
      return TestStoreTask(task: task, runtime: runtime, timeout: timeout, reporter: reporter)
    }
    expect(
      sentState, afterApplying: updateStateToExpectedResult, for: "send", at: location, stackIDsFrom: stackIDsBefore,
      sharedStep: sentSharedStep)
    // Until each effect is suspended again, here or on a TestClock; one that went to the main actor first (an Xcode
    // 26 target's effect reading its reducer's `@Dependency`) is waited for.
    await runtime.settle(defersCompletions: true)
    return TestStoreTask(task: task, runtime: runtime, timeout: timeout, reporter: reporter)
  }

  /// Asserts the current state without sending anything: useful after `skipReceivedActions()` in a
  /// non-exhaustive test.
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// await store.send(.closeTapped)
  /// await store.skipReceivedActions()
  /// store.assert { $0.child = nil }
  /// ```
  public func assert(
    _ updateStateToExpectedResult: (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    runtime.hold()
    beginExploredStep({ "assert" }, at: location)
    defer {
      endExploredStep(at: location)
      runtime.release()
    }
    // Asserting needs no effect to progress: racing calls may stay waiting.
    _ = runtime.runUntilIdle(defersCompletions: true)
    withoutActuallyEscaping(updateStateToExpectedResult) { update in
      expect(
        state, afterApplying: update, for: "assert", at: location, stackIDsFrom: journal.stackElementIDs.value.peek(),
        sharedStep: nil, allowUnchanged: true)
    }
  }

}

import Unidirectional

// Comparing the state with what the test expects, and reporting failures.
extension TestStore {
  /// Compares `actual` with the expected state the closure makes, as TCA does: from the previous state when
  /// exhaustive, from `actual` itself when not.
  ///
  /// Shared values: the closure runs on the expected side of an assertion of the store's change tracker, so it sees
  /// (and changes) the shared values as of the last assertion, while `actual` is read on the actual side, with the
  /// values the reduction of `sharedStep` left in them (nil: the live values, for `assert`). A non-exhaustive test
  /// starts the expected side from those values too: it asserts only the shared changes its closure makes.
  func expect(
    _ actual: State,
    afterApplying updateStateToExpectedResult: ((inout State) throws -> Void)?,
    for operation: String,
    at location: Location,
    stackIDsFrom stackIDs: StackElementID,
    sharedStep: UInt64?,
    allowUnchanged: Bool = false
  ) {
    let previous = state
    let sharedValuesWereChanged = sharedChanges.beginAssertion(
      through: sharedStep, expectingFromStep: exhaustivity != .on)
    defer {
      state = actual
      sharedChanges.endAssertion()
    }
    let sharedValuesChanged = sharedValuesWereChanged && sharedChanges.assertedStepChangedSharedValues
    // The closure runs with the store's dependencies, and sees `store.state` still at `previous`. Its stack ids
    // continue from where the store's were before the action (so `$0.path.append(…)` gets the id the store gave),
    // from a copy: what the closure does never moves the store's own sequence.
    var values = store.dependencies
    values.stackElementID = .incrementing(from: stackIDs.generation)
    func makeExpected(from start: State) -> State? {
      var expected = start
      do {
        try Unidirectional.withDependencies {
          $0 = values
        } operation: {
          try sharedChanges.asserting { try updateStateToExpectedResult?(&expected) }
        }
      } catch {
        report("Threw error in the assertion of \(operation): \(error)", at: location)
        return nil
      }
      return expected
    }
    /// A second expected state, from shared values as the step left them again (a non-exhaustive test does not
    /// assert shared changes it did not write).
    func restartingExpectedSharedValues(_ make: () -> State?) -> State? {
      sharedChanges.expectFromStep()
      return make()
    }
    switch exhaustivity {
    case .on:
      guard let expected = makeExpected(from: previous) else { return }
      if let difference = comparison.difference(expected, actual, asserting: sharedChanges) {
        reportMismatch(difference, at: location)
      } else if !allowUnchanged, !sharedValuesChanged, updateStateToExpectedResult != nil,
        comparison.isSame(expected, previous)
      {
        report(
          """
          Expected state to change, but no change occurred.

          The trailing closure made no observable modifications to state. If no change to state is expected, \
          omit the trailing closure.
          """, at: location)
      }
    case let .off(showSkippedAssertions):
      guard let expected = makeExpected(from: actual) else { return }
      if let difference = comparison.difference(expected, actual, asserting: sharedChanges) {
        reportMismatch(difference, at: location)
      } else if showSkippedAssertions,
        let exhaustive = restartingExpectedSharedValues({ makeExpected(from: previous) }),
        let difference = comparison.difference(exhaustive, actual, asserting: sharedChanges)
      {
        reportSkipped(
          "A state change was not asserted: …\n\n\(difference)\n\n(Expected: −, Actual: +)", at: location)
      }
    }
  }

  func reportMismatch(_ difference: String, at location: Location) {
    report(
      """
      A state change does not match expectation: …

      \(difference)

      (Expected: −, Actual: +)
      """, at: location)
  }

  /// Reports an issue at the test store call in progress, or, for one raised inside an effect, at the `send`
  /// (`origin`) that started it.
  static func issueReporter(
    _ reporter: TestReporter, current: CurrentLocation, origin: Location
  ) -> IssueReporter {
    IssueReporter { issue in
      let location = isRunningInsideEffect() ? origin : current.current(default: origin)
      reporter.report(location.failure(issue.message))
    }
  }

  /// A failure, whatever the exhaustivity.
  func report(_ message: String, at location: Location) {
    reporter.report(location.failure(message))
  }

  /// A failure of an exhaustive test that a non-exhaustive one skips (shown as a note when it shows skipped
  /// assertions).
  func reportUnlessSkipped(_ message: String, at location: Location) {
    if exhaustivity == .on {
      report(message, at: location)
    } else {
      reportSkipped(message, at: location)
    }
  }

  /// An assertion the test chose to skip: an informational note (a known issue in Swift Testing, a note in
  /// XCTest), never a failure; nothing at all with `.off(showSkippedAssertions: false)`.
  func reportSkipped(_ message: String, at location: Location) {
    switch exhaustivity {
    case .on, .off(showSkippedAssertions: true):
      var failure = location.failure("Skipped assertions: …\n\n\(message)")
      failure.isSkippedAssertion = true
      reporter.report(failure)
    case .off(showSkippedAssertions: false):
      break
    }
  }

  func list(_ actions: [Action]) -> String {
    actions.map { "  • " + describe($0) }.joined(separator: "\n")
  }
}

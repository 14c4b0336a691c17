import Foundation
import Testing
import UnidirectionalTesting

/// Six features with a bug that only a particular order of user actions shows, each with its fixed twin. Generated
/// sequences find every bug and shrink it to the shortest sequence that shows it; the fixed twins run clean.
///
/// The fixed twins run 200 sequences here; `UNIDIRECTIONAL_GENERATED_SEQUENCES=10000 swift test --filter
/// GeneratedSequenceFixtureTests` (what `Scripts/generated-sequences` runs) runs any number.
@Suite struct GeneratedSequenceFixtureTests {
  enum Fixture: String, CaseIterable, Sendable, CustomStringConvertible {
    case filteredUndo, doubleSubmit, staleSearch, couponAfterRemoval, timerReset, redoAfterEdit

    var description: String { rawValue }

    func explore(
      fixed: Bool, _ sequences: ActionSequences, replaying pin: String? = nil, reporter: TestReporter
    ) async -> ActionExplorationReport {
      switch self {
      case .filteredUndo: await FilteredUndoFixture.explore(fixed: fixed, sequences, replaying: pin, reporter: reporter)
      case .doubleSubmit: await DoubleSubmitFixture.explore(fixed: fixed, sequences, replaying: pin, reporter: reporter)
      case .staleSearch: await StaleSearchFixture.explore(fixed: fixed, sequences, replaying: pin, reporter: reporter)
      case .couponAfterRemoval:
        await CouponAfterRemovalFixture.explore(fixed: fixed, sequences, replaying: pin, reporter: reporter)
      case .timerReset: await TimerResetFixture.explore(fixed: fixed, sequences, replaying: pin, reporter: reporter)
      case .redoAfterEdit:
        await RedoAfterEditFixture.explore(fixed: fixed, sequences, replaying: pin, reporter: reporter)
      }
    }

    /// The shortest sequence that shows the bug, as the exploration prints it.
    var minimalSteps: [String] {
      switch self {
      case .filteredUndo:
        [
          "await store.send(.filter(FilteredUndoFixture.Filter.active))", "await store.send(.deleteRow(0))",
          "await store.send(.undo)",
        ]
      case .doubleSubmit:
        [
          "await store.send(.submitTapped)", "await store.send(.submitTapped)",
          "await clock.advance(by: .seconds(1))",
        ]
      case .staleSearch:
        [
          "await store.send(.queryChanged(\"ab\"))", "await store.send(.cleared)",
          "await clock.advance(by: .seconds(2))",
        ]
      case .couponAfterRemoval:
        ["await store.send(.add(price: 25))", "await store.send(.applyCoupon)", "await store.send(.removeLast)"]
      case .timerReset:
        [
          "await store.send(.startTapped)", "await store.send(.resetTapped)",
          "await clock.advance(by: .seconds(1))",
        ]
      case .redoAfterEdit:
        [
          "await store.send(.typed(\"a\"))", "await store.send(.undoTapped)", "await store.send(.typed(\"b\"))",
          "await store.send(.redoTapped)",
        ]
      }
    }
  }

  @Test(arguments: Fixture.allCases)
  func generatedSequencesFindTheBugAndShrinkItToTheShortestSequence(_ fixture: Fixture) async {
    let failures = TestFailures()
    let report = await fixture.explore(
      fixed: false, .random(seed: 1, sequences: 500, length: 12), reporter: failures.reporter)
    #expect(report.failingSequence != nil)
    #expect(report.steps == fixture.minimalSteps)
    #expect((report.generatedLength ?? 0) >= report.steps.count)
    #expect(failures.messages.count == 1)
    let message = failures.messages.first ?? ""
    #expect(message.contains(fixture.minimalSteps.map { "    " + $0 }.joined(separator: "\n")), "\(message)")
    #expect(message.contains("replaying: \"\(report.failingSequence ?? "")\""), "\(message)")
  }

  @Test(arguments: Fixture.allCases)
  func thePrintedSequenceReplaysTheFailure(_ fixture: Fixture) async {
    let report = await fixture.explore(
      fixed: false, .random(seed: 1, sequences: 500, length: 12), reporter: TestFailures().reporter)
    let replayed = await fixture.explore(
      fixed: false, .random(), replaying: report.failingSequence, reporter: TestFailures().reporter)
    #expect(replayed.failingSequence == report.failingSequence)
    #expect(replayed.steps == report.steps)
    #expect(replayed.failures == report.failures)
    let fixed = await fixture.explore(
      fixed: true, .random(), replaying: report.failingSequence, reporter: TestFailures().reporter)
    #expect(fixed.failingSequence == nil)
  }

  @Test(arguments: Fixture.allCases)
  func theFixedTwinRunsClean(_ fixture: Fixture) async {
    let count = ProcessInfo.processInfo.environment["UNIDIRECTIONAL_GENERATED_SEQUENCES"].flatMap(Int.init) ?? 200
    let report = await fixture.explore(
      fixed: true, .random(seed: 2, sequences: count, length: 12), reporter: .automatic)
    #expect(report.sequencesRun == count)
    #expect(report.failingSequence == nil)
  }
}

import Unidirectional
import UnidirectionalTesting
import XCTest

/// `exploreActions` in an XCTest test: the test store's failures and errors a check throws are collected and shrunk
/// as in Swift Testing (an `XCTAssert` in a check would fail the test at once, unshrunk: throw instead).
final class ExploreActionsXCTests: XCTestCase {
  struct NotBelowZero: Error {}

  func testAStoreFailureAndAThrownCheckAreShrunkAndReportedOnce() async {
    let failures = TestFailures()
    let report = await exploreActions(
      .random(seed: 9, sequences: 100, length: 10), generating: ExploreActionsTests.doorActions,
      reporter: failures.reporter, store: ExploreActionsTests.door
    ) { state, _ in
      if state.knocks > 30 { throw NotBelowZero() }
    }
    XCTAssertNotNil(report.failingSequence)
    XCTAssertLessThanOrEqual(report.steps.count, 4, "\(report.steps) \(report.failures)")
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages.first?.contains("Replay it with exploreActions(") == true)
  }

  func testADoorOpenedOnlyWhenClosedRunsClean() async {
    let actions = ActionGenerator<ExploreActionsTests.Door.State, ExploreActionsTests.Door.Action> { state in
      [ActionChoice(state.isOpen ? [] : [.open]), ActionChoice(.close), ActionChoice(1...9) { .knock($0) }]
    }
    let report = await exploreActions(.random(seed: 10, sequences: 50, length: 10), generating: actions) {
      ExploreActionsTests.door()
    } check: { state, _ in
      if state.knocks < 0 { throw NotBelowZero() }
    }
    XCTAssertEqual(report.sequencesRun, 50)
    XCTAssertNil(report.failingSequence)
  }
}

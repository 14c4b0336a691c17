import Testing
import Unidirectional
import UnidirectionalTesting

/// A failing schedule is printed with as few deviations from first in, first out as make it fail, however the
/// strategy reached it.
@MainActor
struct ShrinkingTests {
  @Test func aFailureReachedByALongerRoadIsPrintedByTheShortest() async {
    // Depth first with two deviations allowed, the stale search first fails under "5:1,6:1" (the answer to "ab"
    // made early at the last point, then again one point earlier); one deviation is enough.
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 2), reporter: TestFailures().reporter) {
      await StaleSearchResponseTests.typeTwoLetters(fixed: false)
    }
    #expect(report.failingSchedule == "4:1")
  }

  @Test func noDeviationCanBeRemovedYetFewerDeviationsFail() async {
    // Every order in which 2 wakes before 1 and 1 before 0 fails. PCT with seed 7 first meets 3, 2, 1, 0
    // ("0:3,1:2,2:1"), from which removing any one deviation passes; 2, 1, 0, 3 takes two.
    let report = await exploreInterleavings(.pct(seed: 7, depth: 2), reporter: TestFailures().reporter) {
      await PCTStrategyTests.wakeFourFailingWhenTwoBeforeOneBeforeZero()
    }
    #expect(report.failingSchedule == "0:2,1:1")
  }
}

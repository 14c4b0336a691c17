import Testing
import Unidirectional
import UnidirectionalTesting

/// `.pct(seed:depth:schedules:)`, probabilistic concurrency testing: each task gets a random priority, the
/// highest-priority ready task runs, and `depth - 1` times per run the running task drops to the lowest. A bug of
/// depth d — one that d orderings between tasks bring about — is found with a probability that does not shrink as
/// the scenario grows longer, only as it has more tasks and steps.
@MainActor
struct PCTStrategyTests {
  /// A bug of depth 2: it needs two orderings, effect 2 before 1 and 1 before 0. Exhaustive search needs two
  /// deviations to reach it (the order 2, 1, 0, 3).
  static func wakeFourFailingWhenTwoBeforeOneBeforeZero() async {
    _ = await WokenTogether.wakeFour { order in
      let positions = (0..<3).map { order.firstIndex(of: $0) ?? 0 }
      #expect(!(positions[2] < positions[1] && positions[1] < positions[0]), "2 woke before 1, and 1 before 0")
    }
  }

  @Test func itFindsABugOfDepthTwo() async throws {
    let report = await exploreInterleavings(.pct(seed: 7, depth: 2), reporter: TestFailures().reporter) {
      await Self.wakeFourFailingWhenTwoBeforeOneBeforeZero()
    }
    #expect(report.failingSchedule != nil)
    #expect(report.failures.contains { $0.contains("2 woke before 1, and 1 before 0") })
    #expect(try Schedule(report.failingSchedule ?? "").count == 2)
  }

  @Test func theSameSeedGivesTheSameResult() async {
    func explore(seed: UInt64) async -> ExplorationReport {
      await exploreInterleavings(.pct(seed: seed, depth: 2, schedules: 100), reporter: TestFailures().reporter) {
        await Self.wakeFourFailingWhenTwoBeforeOneBeforeZero()
      }
    }
    let first = await explore(seed: 7)
    let second = await explore(seed: 7)
    #expect(first == second)
    #expect(first.schedulesRun > 1, "first in, first out does not have the bug")
  }

  @Test func exhaustiveSearchNeedsTwoDeviationsForIt() async {
    let withOne = await exploreInterleavings(.exhaustive(maxDeviations: 1)) {
      await Self.wakeFourFailingWhenTwoBeforeOneBeforeZero()
    }
    #expect(withOne.failingSchedule == nil)
    #expect(withOne.isComplete)
    let withTwo = await exploreInterleavings(.exhaustive(maxDeviations: 2), reporter: TestFailures().reporter) {
      await Self.wakeFourFailingWhenTwoBeforeOneBeforeZero()
    }
    #expect(withTwo.failingSchedule == "0:2,1:1")
  }
}

import Testing
import Unidirectional
import UnidirectionalTesting

/// `.exhaustive(maxDeviations:)` runs every schedule with at most that many choices other than first in, first out.
@MainActor
struct ExhaustiveStrategyTests {
  /// How many of the 24 orders of four effects woken together have at most `bound` deviations. A run makes three
  /// choices, among 4, 3 and 2 options, so 3, 2 and 1 ways to deviate at each: at most one deviation is
  /// 1 + (3 + 2 + 1) = 7 schedules; at most two adds 3·2 + 3·1 + 2·1 = 11, 18; three adds 3·2·1 = 6, all 24.
  static let expectedCounts = [0: 1, 1: 7, 2: 18, 3: 24]

  @Test(arguments: [0, 1, 2, 3])
  func theNumberOfSchedulesGrowsWithTheBoundAsCounted(bound: Int) async {
    let orders = LockIsolated<[[Int]]>([])
    let report = await exploreInterleavings(.exhaustive(maxDeviations: bound)) {
      let order = await WokenTogether.wakeFour()
      orders.withLock { $0.append(order) }
    }
    #expect(report.schedulesRun == Self.expectedCounts[bound])
    #expect(report.isComplete)
    #expect(Set(orders.value).count == orders.value.count, "each schedule is a different order")
    #expect(orders.value.first == [0, 1, 2, 3], "the first schedule is first in, first out")
  }

  @Test func atTheBoundOfEveryChoiceItRunsEveryOrderOnce() async {
    let orders = LockIsolated<Set<[Int]>>([])
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      let order = await WokenTogether.wakeFour()
      orders.withLock { _ = $0.insert(order) }
    }
    #expect(report.schedulesRun == 24)
    #expect(orders.value.count == 24)
  }

  @Test func aScheduleLimitStopsTheSearchAndSaysItIsIncomplete() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3, maxSchedules: 10)) {
      _ = await WokenTogether.wakeFour()
    }
    #expect(report.schedulesRun == 10)
    #expect(!report.isComplete)
  }
}

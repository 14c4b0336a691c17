import Testing
import Unidirectional
import UnidirectionalTesting

/// `.random(seed:schedules:)` picks every choice uniformly at random from generators seeded by `seed`: the same
/// seed runs the same schedules, on every machine, so a failure it finds is found again.
@MainActor
struct RandomStrategyTests {
  /// The orders the runs of a random exploration woke the four effects in.
  static func orders(seed: UInt64, schedules: Int) async -> [[Int]] {
    let orders = LockIsolated<[[Int]]>([])
    await exploreInterleavings(.random(seed: seed, schedules: schedules)) {
      let order = await WokenTogether.wakeFour()
      orders.withLock { $0.append(order) }
    }
    return orders.value
  }

  @Test func theSameSeedRunsTheSameSchedules() async {
    let first = await Self.orders(seed: 7, schedules: 20)
    let second = await Self.orders(seed: 7, schedules: 20)
    #expect(first.count == 20)
    #expect(first == second)
    #expect(Set(first).count > 5, "the runs are not all one order")
  }

  @Test func anotherSeedRunsOtherSchedules() async {
    let seven = await Self.orders(seed: 7, schedules: 20)
    let eight = await Self.orders(seed: 8, schedules: 20)
    #expect(seven != eight)
  }

  @Test func itFindsABugAndTheSameSeedFindsItAgain() async {
    // The bug: the last effect to sleep wakes before the first. Half of the 24 orders have it; first in, first
    // out does not.
    func explore() async -> ExplorationReport {
      await exploreInterleavings(.random(seed: 7, schedules: 100), reporter: TestFailures().reporter) {
        _ = await WokenTogether.wakeFour { order in
          #expect(order.firstIndex(of: 0) ?? 0 < order.firstIndex(of: 3) ?? 0, "3 woke before 0")
        }
      }
    }
    let report = await explore()
    #expect(report.failingSchedule != nil)
    #expect(report.failures.contains { $0.contains("3 woke before 0") })
    let again = await explore()
    #expect(again == report)
  }
}

import Testing
import Unidirectional
import UnidirectionalTesting

/// The corpus under every strategy, with its defaults: how many schedules each runs until it finds the race, the
/// schedule it prints, and how many schedules the fixed feature has at each bound. The table in the article
/// "Exploring interleavings" is this one; the test keeps the two the same.
@MainActor
struct CorpusTableTests {
  struct Race: Sendable, CustomTestStringConvertible {
    let name: String
    let scenario: @Sendable @MainActor (_ fixed: Bool) async -> Void
    /// Schedules run until the race was found: `.exhaustive()`, `.random()`, `.pct()`.
    let exhaustive: Int
    let random: Int
    let pct: Int
    /// The shrunk schedule all three print.
    let schedule: String
    /// Schedules of the fixed feature at bounds 0, 1, 2 and 3, every one of them run.
    let fixedSchedules: [Int]

    var testDescription: String { name }
  }

  nonisolated static let races: [Race] = [
    Race(
      name: "stale search response", scenario: { await StaleSearchResponseTests.typeTwoLetters(fixed: $0) },
      exhaustive: 2, random: 78, pct: 27, schedule: "4:1", fixedSchedules: [1, 6, 9, 9]),
    Race(
      name: "double-tap upload", scenario: { await DoubleTapUploadTests.tapTwice(fixed: $0) },
      exhaustive: 1, random: 30, pct: 1, schedule: "", fixedSchedules: [1, 4, 6, 6]),
    Race(
      name: "lost @Shared update", scenario: { await LostSharedUpdateTests.addTwoItems(fixed: $0) },
      exhaustive: 1, random: 30, pct: 1, schedule: "", fixedSchedules: [1, 7, 12, 12]),
    Race(
      name: "timer tick after stop",
      scenario: { await TimerTickAfterStopTests.stopAtTheSecondTheTimerTicks(fixed: $0) },
      exhaustive: 2, random: 1, pct: 3, schedule: "0:1", fixedSchedules: [1, 2, 2, 2]),
    Race(
      name: "debounce cancel vs its timer", scenario: { await DebouncedSearchAfterClearTests.typeThenClear(fixed: $0) },
      exhaustive: 1, random: 3, pct: 1, schedule: "", fixedSchedules: [1, 3, 3, 3]),
    Race(
      name: "cancelInFlight vs a late answer",
      scenario: { await CancelInFlightLateWriteTests.typeTwoLetters(fixed: $0) },
      exhaustive: 2, random: 78, pct: 27, schedule: "4:1", fixedSchedules: [1, 7, 12, 12]),
    Race(
      name: "effect outliving its dismissal", scenario: { await EffectOutlivingDismissalTests.openAndClose(fixed: $0) },
      exhaustive: 1, random: 1, pct: 1, schedule: "", fixedSchedules: [1, 3, 6, 10]),
    Race(
      name: "delegate action after dismissal",
      scenario: { await DelegateAfterDismissalTests.saveThenClose(fixed: $0) },
      exhaustive: 1, random: 3, pct: 1, schedule: "", fixedSchedules: [1, 4, 4, 4]),
    Race(
      name: "retry racing a cancel", scenario: { await RetryAfterCancelTests.loadThenCancel(fixed: $0) },
      exhaustive: 1, random: 2, pct: 1, schedule: "", fixedSchedules: [1, 4, 8, 8]),
    Race(
      name: "response after its row was removed",
      scenario: { await ResponseAfterRowRemovedTests.deleteWhileLoading(fixed: $0) },
      exhaustive: 1, random: 4, pct: 1, schedule: "", fixedSchedules: [1, 9, 27, 37]),
  ]

  @Test(arguments: races)
  func everyStrategyFindsTheRaceWithinTheListedSchedules(race: Race) async {
    for (strategy, expected) in [
      (ExplorationStrategy.exhaustive(), race.exhaustive), (.random(), race.random), (.pct(), race.pct),
    ] {
      let report = await exploreInterleavings(strategy, reporter: TestFailures().reporter) {
        await race.scenario(false)
      }
      #expect(report.schedulesRun == expected, "\(strategy)")
      #expect(report.failingSchedule == race.schedule, "\(strategy)")
    }
  }

  @Test(arguments: races)
  func theFixedFeatureHasTheListedSchedulesAtEachBound(race: Race) async {
    for bound in 0...3 {
      let report = await exploreInterleavings(.exhaustive(maxDeviations: bound)) { await race.scenario(true) }
      #expect(report.isComplete)
      #expect(report.schedulesRun == race.fixedSchedules[bound], "at most \(bound) deviations")
    }
  }
}

import Unidirectional

// Generated sequences under the interleavings of their effects: the one place that composes `exploreActions` with
// `exploreInterleavings`, through the latter's public API only.
extension ActionSequenceExplorer {
  /// `choices` run under every schedule `strategy` explores: the failing run (its steps as the failing schedule
  /// generated them, with the schedule the explorer shrank), or nil when every schedule passed.
  nonisolated(nonsending) func runUnderInterleavings(
    _ choices: [StepChoice], _ strategy: ExplorationStrategy
  ) async -> SequenceRun<Action>? {
    let record = SequenceRecord<Action>()
    let report = await exploreInterleavings(strategy, reporter: TestFailures().reporter) {
      record.reset()
      try await perform(.replaying(choices), into: record, log: nil)
    }
    guard let schedule = report.failingSchedule else { return nil }
    // A schedule can lead to another state, hence other steps: the failing one's are those to print.
    var failing = await run(choices, underSchedule: schedule)
    if !failing.failed {
      // Replayed alone, the schedule passed (a scenario that is not deterministic): the exploration's failures stand.
      failing.failures = report.failures
      failing.failingLength = failing.steps.count
    }
    return failing
  }

  /// `choices` run under exactly the interleaving `schedule` (an `exploreInterleavings` pin).
  nonisolated(nonsending) func run(_ choices: [StepChoice], underSchedule schedule: String) async -> SequenceRun<Action>
  {
    let record = SequenceRecord<Action>()
    let report = await exploreInterleavings(replaying: schedule, reporter: TestFailures().reporter) {
      record.reset()
      try await perform(.replaying(choices), into: record, log: nil)
    }
    return SequenceRun(record: record, failures: report.failures, schedule: schedule)
  }
}

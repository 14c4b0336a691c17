import Testing
import Unidirectional

/// Runs `scenario` — a closure that makes a fresh `TestStore` and its dependencies, sends, advances clocks and
/// asserts — once per schedule of its concurrently ready work, and fails the test at the first schedule that breaks
/// a check, shrunk and printed as a string that replays it.
///
/// A choice point is any moment with more than one thing ready: effect jobs on the store's runtime, sleepers of a
/// `TestClock` woken at the same instant, and completions of calls made through `withRacing(_:)`. Every check of
/// the scenario counts: the `TestStore`'s (exhaustive or not, `finish()`, effects still running at the end),
/// `#expect` in a Swift Testing test, and errors it throws.
///
/// ```swift
/// @Test func theLatestSearchWins() async {
///   await exploreInterleavings(.exhaustive(maxDeviations: 2)) {
///     let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
///       $0.search = { query in try await withRacing { [query + "!"] } }
///     }
///     await store.send(.queryChanged("a")) { $0.query = "a" }
///     await store.send(.queryChanged("ab")) { $0.query = "ab" }
///     await store.skipReceivedActions()
///     #expect(store.state.results == ["ab!"])
///   }
/// }
/// ```
///
/// Pin a failing schedule to replay exactly that run, every time: `exploreInterleavings(replaying: "4:1") { … }`.
@discardableResult
nonisolated(nonsending) public func exploreInterleavings(
  _ strategy: ExplorationStrategy = .exhaustive(),
  replaying schedule: String? = nil,
  reporter: TestReporter = .automatic,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ scenario: nonisolated(nonsending) @escaping () async throws -> Void
) async -> ExplorationReport {
  let explorer = InterleavingExplorer(scenario: scenario)
  func fail(_ message: String) {
    reporter.report(TestFailure(message: message, fileID: fileID, filePath: filePath, line: line, column: column))
  }
  if let schedule {
    let parsed: Schedule
    do {
      parsed = try Schedule(schedule)
    } catch {
      fail("\(error)")
      return ExplorationReport(schedulesRun: 0, isComplete: false, failingSchedule: nil, failures: ["\(error)"])
    }
    let (run, failures) = await explorer.run(.following(parsed, strict: true), describingChoices: true)
    let problems = failures + (run.mismatch.map { ["the scenario did not replay the same way: \($0)"] } ?? [])
    let choices = run.choiceDescriptions
    if !problems.isEmpty {
      fail(
        """
        In the schedule "\(schedule)":

        \(problems.joined(separator: "\n\n"))

        \(InterleavingExplorer.printed(choices))
        """)
    }
    return ExplorationReport(
      schedulesRun: 1, isComplete: true, failingSchedule: problems.isEmpty ? nil : schedule, failures: problems,
      choices: choices)
  }
  var (report, failing) = await explorer.explore(strategy)
  if let failing {
    let (shrunk, failures) = await explorer.shrink(failing)
    report.failingSchedule = shrunk.description
    report.failures = failures
    // Once more, to print it and save it: the same run, every time.
    let url = FailingRunTrace.url(
      filePath: filePath, line: line, failure: ([shrunk.description] + failures).joined(separator: "\n"))
    let saved = await FailingRunTrace.write(to: url) { tracer in
      let (run, described) = await explorer.run(
        .following(shrunk, strict: true), describingChoices: true, tracer: tracer)
      report.choices = run.choiceDescriptions
      // The same failures, with the words only a described run has (the effect that made a racing call).
      if !described.isEmpty { report.failures = described }
    }
    let trace: String
    switch saved {
    case let .success(url):
      report.failingRunTrace = url
      trace = """
        The failing run, with the state after every action and its effects, as a trace: \(url.path)
        Open it in the inspector (InspectorTraceModel; in this repository `swift run --package-path Demos demo \
        inspect \(url.path)`) or in Perfetto (ui.perfetto.dev).
        """
    case let .failure(error):
      trace = "The failing run could not be saved: \(error)."
    }
    fail(
      """
      Exploring interleavings (\(strategy)): schedule \(report.schedulesRun) broke the scenario.
      Shrunk to \(shrunk.count) choice\(shrunk.count == 1 ? "" : "s") that differ\(shrunk.count == 1 ? "s" : "") \
      from first in, first out: "\(shrunk)". Replay it with exploreInterleavings(replaying: "\(shrunk)") { … }.

      \(report.failures.joined(separator: "\n\n"))

      \(InterleavingExplorer.printed(report.choices))

      \(trace)
      """)
  }
  return report
}

/// Runs one scenario under many schedules (see ``exploreInterleavings(_:replaying:reporter:fileID:filePath:line:column:_:)``).
struct InterleavingExplorer {
  /// Where the test stores of an explored run report: the run's own collection, not the test.
  @TaskLocal static var collector: TestReporter?

  let scenario: nonisolated(nonsending) () async throws -> Void

  /// A run's choices in words, under a heading, for a failure message.
  static func printed(_ choices: [String]) -> String {
    guard !choices.isEmpty else { return "The run met no choice point: it has one schedule." }
    return "The schedule, choice by choice (#point, the test's step, what ran):\n"
      + choices.map { "  " + $0 }.joined(separator: "\n")
  }

  /// Runs the scenario once with `policy`; returns the run and what failed in it.
  ///
  /// The closures below capture `isolation`, the caller's actor, so the scenario runs on it: a test's closures that
  /// read main-actor state (any test of an Xcode 26 target) are called where they were written.
  func run(
    _ policy: ExploredRun.Policy, describingChoices: Bool = false, tracer: StoreTracer? = nil,
    isolation: isolated (any Actor)? = #isolation
  ) async -> (ExploredRun, [String]) {
    let run = ExploredRun(policy, describesChoices: describingChoices, tracer: tracer)
    let failures = TestFailures()
    let issues = LockIsolated<[String]>([])
    await ExploredRun.$current.withValue(
      run,
      operation: {
        _ = isolation
        await Self.$collector.withValue(
          failures.reporter,
          operation: {
            _ = isolation
            if Test.current != nil {
              // Every issue of the run (an #expect, a thrown error) is known: collected here, reported once after.
              do {
                try await withKnownIssue(isIntermittent: true, isolation: isolation) {
                  _ = isolation
                  try await scenario()
                } matching: { issue in
                  issues.withLock { $0.append("\(issue)") }
                  return true
                }
              } catch {
                issues.withLock { $0.append("The scenario threw \(error)") }
              }
            } else {
              do {
                try await scenario()
              } catch {
                issues.withLock { $0.append("The scenario threw \(error)") }
              }
            }
          }, isolation: isolation)
      }, isolation: isolation)
    return (run, failures.messages + issues.value)
  }

  /// Runs schedules as `strategy` picks them until one fails or none is left; returns what ran and the failing
  /// schedule, if one failed.
  nonisolated(nonsending) func explore(_ strategy: ExplorationStrategy) async -> (ExplorationReport, Schedule?) {
    var count = 0
    func failed(_ run: ExploredRun, _ failures: [String]) -> (ExplorationReport, Schedule?) {
      let schedule = Schedule(choices: run.choices)
      let report = ExplorationReport(
        schedulesRun: count, isComplete: false, failingSchedule: schedule.description, failures: failures)
      return (report, schedule)
    }
    switch strategy {
    case let .exhaustive(maxDeviations, maxSchedules):
      let search = DepthFirstSchedules(maxDeviations: maxDeviations)
      var prefix: [Int]? = []
      while let next = prefix, count < maxSchedules {
        let (run, failures) = await run(.following(Schedule(), prefix: next))
        count += 1
        if let mismatch = run.mismatch {
          return failed(run, ["The scenario is not deterministic: replaying a schedule, \(mismatch)."])
        }
        if !failures.isEmpty { return failed(run, failures) }
        prefix = search.next(after: run.choices, optionCounts: run.optionCounts)
      }
      return (
        ExplorationReport(schedulesRun: count, isComplete: prefix == nil, failingSchedule: nil, failures: []), nil
      )
    case let .random(seed, schedules):
      for index in 0..<schedules {
        let (run, failures) = await run(.random(seed: seed &+ UInt64(index) &* 0x9E37_79B9))
        count += 1
        if !failures.isEmpty { return failed(run, failures) }
      }
    case let .pct(seed, depth, schedules):
      // The first-in-first-out run measures how many choice points a run has.
      let (first, firstFailures) = await run(.following(Schedule()))
      count += 1
      if !firstFailures.isEmpty { return failed(first, firstFailures) }
      let steps = max(first.choices.count, 1)
      for index in 0..<max(schedules - 1, 0) {
        let (run, failures) = await run(.pct(seed: seed &+ UInt64(index) &* 0x9E37_79B9, depth: depth, steps: steps))
        count += 1
        if !failures.isEmpty { return failed(run, failures) }
      }
    }
    return (ExplorationReport(schedulesRun: count, isComplete: false, failingSchedule: nil, failures: []), nil)
  }

  /// The failing `schedule` with as few deviations from first in, first out as still fail, and its failures.
  ///
  /// Deviations are first removed one at a time while the run still fails. A schedule none of whose deviations can
  /// be removed may still not be the shortest — a depth-first or random search can reach a failure by a longer
  /// road (2, 1, 0 woken in that order takes three deviations one way, two another) — so every schedule with at
  /// most as many deviations is then run, fewest first and depth first, within a budget of runs: the first that
  /// fails is printed, the same whichever strategy found the failure.
  nonisolated(nonsending) func shrink(_ schedule: Schedule) async -> (Schedule, [String]) {
    let (removed, removedFailures) = await shrinkByRemoving(schedule)
    var budget = 200
    for bound in 0...removed.count {
      let search = DepthFirstSchedules(maxDeviations: bound)
      var prefix: [Int]? = []
      while let next = prefix, budget > 0 {
        budget -= 1
        let (run, failures) = await run(.following(Schedule(), prefix: next))
        if !failures.isEmpty, run.mismatch == nil { return (Schedule(choices: run.choices), failures) }
        prefix = search.next(after: run.choices, optionCounts: run.optionCounts)
      }
    }
    return (removed, removedFailures)
  }

  /// The failing `schedule` with its deviations removed one at a time while the run still fails.
  nonisolated(nonsending) func shrinkByRemoving(_ schedule: Schedule) async -> (Schedule, [String]) {
    var best = schedule
    var (_, bestFailures) = await run(.following(best))
    var attempts = 0
    var shrinking = true
    while shrinking, attempts < 200 {
      shrinking = false
      for point in best.deviations.keys.sorted() {
        attempts += 1
        let (run, failures) = await run(.following(best.removing(point)))
        if !failures.isEmpty {
          best = Schedule(choices: run.choices)
          bestFailures = failures
          shrinking = true
          break
        }
      }
    }
    return (best, bestFailures)
  }
}

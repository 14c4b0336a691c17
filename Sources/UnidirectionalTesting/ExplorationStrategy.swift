import Foundation
/// How ``exploreInterleavings(_:replaying:reporter:fileID:filePath:line:column:_:)`` picks the schedules it runs.
///
/// ```swift
/// await exploreInterleavings(.exhaustive(maxDeviations: 2)) { … }   // every schedule within the bound
/// await exploreInterleavings(.random(seed: 7, schedules: 500)) { … }
/// await exploreInterleavings(.pct(seed: 7, depth: 3)) { … }
/// ```
public enum ExplorationStrategy: Sendable, CustomStringConvertible {
  /// Every schedule, depth first, with at most `maxDeviations` choices that differ from first in, first out (as
  /// loom bounds preemptions), and at most `maxSchedules` runs.
  case exhaustive(maxDeviations: Int = 2, maxSchedules: Int = 1_000)
  /// `schedules` runs, each choosing uniformly at random, from generators seeded with `seed` and the run's number.
  case random(seed: UInt64 = 0, schedules: Int = 100)
  /// `schedules` runs of probabilistic concurrency testing: random task priorities, the highest-priority ready task
  /// runs, and `depth - 1` random priority drops per run (finds any bug of depth `depth` with known probability).
  case pct(seed: UInt64 = 0, depth: Int = 3, schedules: Int = 100)

  public var description: String {
    switch self {
    case let .exhaustive(deviations, schedules):
      "exhaustive, at most \(deviations) deviation\(deviations == 1 ? "" : "s") and \(schedules) schedules"
    case let .random(seed, schedules): "random, seed \(seed), \(schedules) schedules"
    case let .pct(seed, depth, schedules): "PCT, seed \(seed), depth \(depth), \(schedules) schedules"
    }
  }
}

/// What an exploration ran and found.
public struct ExplorationReport: Sendable, Equatable {
  /// How many schedules ran (shrinking a failure not counted).
  public var schedulesRun: Int
  /// Whether every schedule the strategy allows ran (an exhaustive search that did not hit its schedule limit).
  public var isComplete: Bool
  /// The failing schedule, shrunk to the fewest choices that differ from first in, first out: the string to pass
  /// as `replaying:`. Nil when every schedule passed.
  public var failingSchedule: String?
  /// What failed in that schedule.
  public var failures: [String]
  /// The failing schedule — or, replaying, the replayed one — choice by choice, in words: the test's step at each
  /// choice point, what ran (an effect and the action that started it, the answer of a racing call and where it
  /// was made), and at a deviation its `point:option` pair and what first in, first out would have run. Empty when
  /// every schedule passed.
  ///
  /// ```text
  /// #4 in skipReceivedActions() at SearchTests.swift:44: answered withRacing at SearchTests.swift:38 in effect 2
  ///    of .queryChanged("ab") ← 4:1, instead of: answered withRacing at SearchTests.swift:38 in effect 1 of …
  /// ```
  public var choices: [String] = []
  /// The failing run saved as a store trace with the state after every action — an action log with its effect
  /// timeline, which the inspector opens alone (`InspectorTraceModel`) — or nil when every schedule passed (or the
  /// file could not be written; the failure says why). See the article "Exploring interleavings" for where it goes.
  public var failingRunTrace: URL? = nil
}

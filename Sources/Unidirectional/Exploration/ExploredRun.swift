import Foundation

/// The chooser of one explored run: takes its choices from a policy (a schedule to follow, a seeded random
/// generator, PCT priorities) and records every choice point it met, so the run can be printed, shrunk and
/// replayed.
///
/// ```swift
/// let run = ExploredRun(.following(try Schedule("4:1")))
/// let runtime = TestRuntime(chooser: run)
/// … // the scenario
/// run.choices   // the option taken at each choice point
/// ```
package final class ExploredRun: ScheduleChooser, @unchecked Sendable {
  /// Where a run's choices come from.
  package enum Policy: Sendable {
    /// The schedule's options, and option 0 past it (first in, first out). `strict`: the run must meet the
    /// schedule's points with at least as many options as it names (a replay checks the scenario is deterministic).
    case following(Schedule, prefix: [Int] = [], strict: Bool = false)
    /// A uniformly random option at each point, from a generator seeded with `seed`.
    case random(seed: UInt64)
    /// PCT (probabilistic concurrency testing): each task gets a random priority, the highest-priority ready task
    /// runs, and at `depth - 1` random points among the first `steps` the running task drops to the lowest.
    case pct(seed: UInt64, depth: Int, steps: Int)
  }

  private let lock = Lock()
  private let policy: Policy
  private var generator: SplitMix64
  private var priorities: [ScheduleOption: Int] = [:]
  private var changePoints: [Int] = []
  private var recorded: [(count: Int, chosen: Int)] = []
  /// Each choice point's options and the test's step, in words (made only when printed), and between them the
  /// racing calls completed without a choice (`point` nil).
  private var described: [(point: Int?, labels: [ScheduleLabel], step: ScheduleLabel?)] = []
  private var mismatches: [String] = []

  /// The run the current task's test stores take their choices from, while an explorer runs a scenario.
  @TaskLocal package static var current: ExploredRun?

  /// Where the run's test stores write what they do, states included (a failing run the explorer saves), if
  /// anywhere.
  package let tracer: StoreTracer?
  /// Whether the run is printed (``choiceDescriptions``): a replay, or a failing run once found.
  package let describesChoices: Bool

  package init(_ policy: Policy, describesChoices: Bool = false, tracer: StoreTracer? = nil) {
    self.policy = policy
    self.describesChoices = describesChoices
    self.tracer = tracer
    switch policy {
    case .following: generator = SplitMix64(seed: 0)
    case let .random(seed): generator = SplitMix64(seed: seed)
    case let .pct(seed, depth, steps):
      generator = SplitMix64(seed: seed)
      let span = max(steps, 1)
      changePoints = (0..<max(depth - 1, 0)).map { _ in Int(generator.next() % UInt64(span)) }
    }
  }

  /// The option taken at each choice point, in order.
  package var choices: [Int] { lock.withLock { recorded.map(\.chosen) } }

  /// How many options each choice point had, in order.
  package var optionCounts: [Int] { lock.withLock { recorded.map(\.count) } }

  /// Where a followed schedule did not fit the run (the scenario is not deterministic), if anywhere.
  package var mismatch: String? { lock.withLock { mismatches.first } }

  package func choose(_ point: ChoicePoint) -> Int {
    lock.withLock {
      let index = recorded.count
      let count = point.options.count
      var chosen: Int
      switch policy {
      case let .following(schedule, prefix, strict):
        chosen = index < prefix.count ? prefix[index] : schedule.option(at: index)
        if chosen >= count {
          if strict || index < prefix.count {
            mismatches.append("choice point \(index) has \(count) options, the schedule takes option \(chosen)")
          }
          chosen = 0
        }
      case .random:
        chosen = Int(generator.next() % UInt64(count))
      case .pct:
        chosen = highestPriority(among: point.options)
        if let change = changePoints.firstIndex(of: index) {
          priorities[point.options[chosen]] = change - changePoints.count
        }
      }
      recorded.append((count, chosen))
      if describesChoices { described.append((index, point.labels, point.step)) }
      return chosen
    }
  }

  package func didComplete(_ point: ChoicePoint) {
    lock.withLock { described.append((nil, point.labels, point.step)) }
  }

  /// Each choice point in words, one a line (a run that ``describesChoices``; otherwise its points only): where the test was, what ran, and at a deviation (marked with its
  /// `point:option` pair, as the schedule prints it) what first in, first out would have run; between them, marked
  /// `-`, the racing calls completed without a choice. A long run shows its deviations only.
  ///
  /// ```text
  /// #4 in skipReceivedActions() at SearchTests.swift:44: answered withRacing at SearchTests.swift:38 in effect 2
  ///    of .queryChanged("ab") ← 4:1, instead of: answered withRacing at SearchTests.swift:38 in effect 1 of …
  /// -  in finish() at SearchTests.swift:45: answered withRacing at SearchTests.swift:38 in effect 1 of …
  /// ```
  package var choiceDescriptions: [String] {
    let (chosen, described) = lock.withLock { (recorded.map(\.chosen), self.described) }
    let showsAll = chosen.count <= Self.printedChoicesLimit
    var lines: [String] = []
    for (point, labels, step) in described {
      let option = point.map { chosen[$0] } ?? 0
      guard showsAll || option != 0 else { continue }
      var line = point.map { "#\($0)" } ?? "- "
      if let step { line += " in \(step.text)" }
      line += ": " + (option < labels.count ? labels[option].text : "option \(option)")
      if let point, option != 0 {
        line += " ← \(point):\(option), instead of: " + (labels.first?.text ?? "option 0")
      }
      lines.append(line)
    }
    if !showsAll {
      let others = chosen.count - lines.count
      lines.append("(\(others) other choice point\(others == 1 ? "" : "s") took first in, first out)")
    }
    return lines
  }

  /// Past this many choice points, a printed run shows its deviations only.
  static let printedChoicesLimit = 40

  /// The option whose task has the highest priority; a task seen for the first time gets a random one.
  private func highestPriority(among options: [ScheduleOption]) -> Int {
    var best = 0
    var bestPriority = Int.min
    for (index, option) in options.enumerated() {
      let priority: Int
      if let known = priorities[option] {
        priority = known
      } else {
        priority = Int(generator.next() % 1_000_000) + 1
        priorities[option] = priority
      }
      if priority > bestPriority {
        best = index
        bestPriority = priority
      }
    }
    return best
  }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64): the same seed gives the same run on
/// every platform.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The number at `index` of the sequence from seed 0: what a generator of recorded numbers gives once it has
  /// given them all.
  package static func standIn(at index: Int) -> UInt64 {
    var generator = SplitMix64(seed: UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
    return generator.next()
  }
}

import Testing
import Unidirectional

/// Runs generated action sequences, each against a fresh test store, checking after every step; shrinks a failing
/// one (see ``exploreActions(_:generating:replaying:interleavings:reporter:fileID:filePath:line:column:store:check:)``).
///
/// Everything runs on the caller's actor: the closures the test gives are called there, never sent elsewhere.
struct ActionSequenceExplorer<State, Action: Sendable, Model> {
  let generator: ActionGenerator<State, Action>
  let makeStore: () -> TestStore<State, Action>
  let model: Model
  let update: (inout Model, GeneratedStep<Action>) -> Void
  let check: (State, Model, GeneratedStep<Action>) throws -> Void

  /// Runs the steps `source` gives on a fresh store, recording them in `record`, and stops after the first step at
  /// which `log` holds a failure. Issues and thrown errors go to whoever collects them around the call.
  ///
  /// Between steps the store runs what is ready, as a `send` does, and no more: under an interleaving explorer a
  /// racing call's answer may come after later steps. After the last step everything still on its way comes in,
  /// and the check runs once more.
  nonisolated(nonsending) func perform(
    _ source: ChoiceSource, into record: SequenceRecord<Action>, log: SequenceFailureLog?
  ) async throws {
    var source = source
    let store = makeStore()
    store.exhaustivity = .off(showSkippedAssertions: false)
    var model = self.model
    var lastStep: GeneratedStep<Action>?
    while true {
      let options = generator.choices(store.state)
      guard let (choice, step) = source.next(options) else { break }
      log?.enter(step: record.steps.count)
      record.append(choice, step, alternatives: options.map { $0.isAvailable ? $0.count : 0 })
      switch step {
      case let .send(action):
        await store.send(action)
      case let .advance(duration):
        guard let clock = store.dependencies.clock as? TestClock else {
          throw GeneratedSequenceError.noTestClock(String(describing: type(of: store.dependencies.clock)))
        }
        await clock.advance(by: duration)
      }
      store.takeReceivedActions()
      update(&model, step)
      try check(store.state, model, step)
      if log?.hasFailures == true { return }
      lastStep = step
    }
    guard let lastStep else { return }
    await store.skipReceivedActions(strict: false)
    try check(store.state, model, lastStep)
  }

  /// Runs the steps `source` gives and collects what fails: the test store's failures, Swift Testing issues
  /// (`#expect` in a check, in `checkEveryState`, in an effect), and errors thrown.
  ///
  /// The closures below capture `isolation`, the caller's actor, so they run on it: the test's closures (a main-actor
  /// generator in an Xcode 26 target) are called where they were written.
  func run(_ source: ChoiceSource, isolation: isolated (any Actor)? = #isolation) async -> SequenceRun<Action> {
    let log = SequenceFailureLog()
    let record = SequenceRecord<Action>()
    await GeneratedSequenceFailures.$collector.withValue(
      log.reporter,
      operation: {
        _ = isolation
        if Test.current != nil {
          // Every issue of the run is known: collected here, reported once for the shrunk sequence.
          do {
            try await withKnownIssue(isIntermittent: true, isolation: isolation) {
              _ = isolation
              try await perform(source, into: record, log: log)
            } matching: { issue in
              log.record("\(issue)", kind: SequenceFailureLog.kind(of: issue))
              return true
            }
          } catch {
            log.record("The sequence threw \(error)", kind: "threw \(String(reflecting: type(of: error)))")
          }
        } else {
          do {
            try await perform(source, into: record, log: log)
          } catch {
            log.record("The sequence threw \(error)", kind: "threw \(String(reflecting: type(of: error)))")
          }
        }
      }, isolation: isolation)
    return SequenceRun(record: record, log: log)
  }

  /// Runs `count` random sequences of at most `length` steps from `seed`, each also under `interleavings` when
  /// given; returns how many ran and the first that failed.
  nonisolated(nonsending) func explore(
    _ sequences: ActionSequences, interleavings: ExplorationStrategy?
  ) async -> (sequencesRun: Int, failing: SequenceRun<Action>?) {
    for index in 0..<sequences.count {
      let seed = sequences.seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
      var run = await run(.random(seed: seed, length: sequences.length))
      if !run.failed, let interleavings, let failing = await runUnderInterleavings(run.choices, interleavings) {
        run = failing
      }
      if run.failed { return (index + 1, run) }
    }
    return (sequences.count, nil)
  }

  /// Runs `choices` once, under `interleavings` too when given; the run, failing or not.
  nonisolated(nonsending) func replay(
    _ choices: [StepChoice], interleavings: ExplorationStrategy?
  ) async -> SequenceRun<Action> {
    let run = await run(.replaying(choices))
    if !run.failed, let interleavings, let failing = await runUnderInterleavings(run.choices, interleavings) {
      return failing
    }
    return run
  }
}

/// Where the steps of a run come from: a seeded generator, or a recorded sequence.
struct ChoiceSource {
  private enum Kind {
    case random(SplitMix64, remaining: Int)
    case replaying(ArraySlice<StepChoice>)
  }
  private var kind: Kind

  static func random(seed: UInt64, length: Int) -> Self {
    Self(kind: .random(SplitMix64(seed: seed), remaining: length))
  }
  static func replaying(_ choices: [StepChoice]) -> Self { Self(kind: .replaying(choices[...])) }

  /// The next step among `options` and its choice, or nil when the sequence ends. A recorded step whose choice is
  /// not available in this state (a shorter sequence reached another state) is left out.
  mutating func next<Action>(_ options: [ActionChoice<Action>]) -> (StepChoice, GeneratedStep<Action>)? {
    switch kind {
    case .random(var generator, let remaining):
      defer { kind = .random(generator, remaining: remaining - 1) }
      guard remaining > 0 else { return nil }
      let total = options.reduce(0) { $0 + ($1.isAvailable ? $1.weight : 0) }
      guard total > 0 else { return nil }
      var pick = Int(generator.next(upperBound: UInt64(total)))
      guard
        let option = options.indices.first(where: { index in
          guard options[index].isAvailable else { return false }
          if pick < options[index].weight { return true }
          pick -= options[index].weight
          return false
        })
      else { return nil }
      let payload = Int(generator.next(upperBound: UInt64(options[option].count)))
      return (StepChoice(option: option, payload: payload), options[option].step(payload))
    case .replaying(var choices):
      defer { kind = .replaying(choices) }
      while let recorded = choices.popFirst() {
        guard options.indices.contains(recorded.option), options[recorded.option].isAvailable else { continue }
        let choice = StepChoice(
          option: recorded.option, payload: max(min(recorded.payload, options[recorded.option].count - 1), 0))
        return (choice, options[choice.option].step(choice.payload))
      }
      return nil
    }
  }
}

/// The steps a run took, as it took them, and the choices each step had. Used on the caller's actor only.
final class SequenceRecord<Action> {
  private(set) var choices: [StepChoice] = []
  private(set) var steps: [GeneratedStep<Action>] = []
  /// For each step, how many payloads each of its choices offered (0: not available).
  private(set) var alternatives: [[Int]] = []

  func append(_ choice: StepChoice, _ step: GeneratedStep<Action>, alternatives: [Int]) {
    choices.append(choice)
    steps.append(step)
    self.alternatives.append(alternatives)
  }

  func reset() {
    choices = []
    steps = []
    alternatives = []
  }
}

/// The failures of one run, the step each came at, and what kind each is: shrinking keeps to sequences whose first
/// failure is of the same kind as the original's — a shorter sequence that breaks something else is another bug.
final class SequenceFailureLog: Sendable {
  struct Failure {
    let step: Int
    let message: String
    /// The check that failed: where an issue was recorded, the type of an error thrown, the first line of a test
    /// store's failure. Not its values: `a coupon on an order of 15` and `… of 0` are one failure.
    let kind: String
  }
  private struct Entries {
    var step = 0
    var failures: [Failure] = []
  }
  private let storage = LockIsolated(Entries())

  func enter(step: Int) { storage.withLock { $0.step = step } }

  func record(_ message: String, kind: String) {
    storage.withLock { $0.failures.append(Failure(step: $0.step, message: message, kind: kind)) }
  }

  var hasFailures: Bool { storage.withLock { !$0.failures.isEmpty } }

  var failures: [Failure] { storage.withLock { $0.failures } }

  /// Where the run's test stores report.
  var reporter: TestReporter {
    TestReporter { failure in
      guard !failure.isSkippedAssertion else { return }
      self.record(failure.message, kind: String(failure.message.prefix { $0 != "\n" }))
    }
  }

  /// The kind of a Swift Testing issue: an error's type, or where the expectation is.
  static func kind(of issue: Issue) -> String {
    if let error = issue.error { return "threw \(String(reflecting: type(of: error)))" }
    guard let location = issue.sourceLocation else { return "\(issue.kind)" }
    return "\(location.fileID):\(location.line):\(location.column)"
  }
}

/// One run of a generated sequence: its steps, and what failed.
struct SequenceRun<Action> {
  var choices: [StepChoice]
  var steps: [GeneratedStep<Action>]
  /// For each step, how many payloads each of its choices offered (0: not available).
  var alternatives: [[Int]]
  var failures: [String]
  /// How many steps had run when the first failure came.
  var failingLength: Int?
  /// The interleaving it failed under, if it failed only under one.
  var schedule: String?
  /// The kind of its first failure (see ``SequenceFailureLog/Failure/kind``); nil for one found under interleavings.
  var failureKind: String?

  init(record: SequenceRecord<Action>, log: SequenceFailureLog, schedule: String? = nil) {
    choices = record.choices
    steps = record.steps
    alternatives = record.alternatives
    let failures = log.failures
    self.failures = failures.map(\.message)
    failingLength = failures.first.map { min($0.step + 1, record.steps.count) }
    failureKind = failures.first?.kind
    self.schedule = schedule
  }

  init(record: SequenceRecord<Action>, failures: [String], schedule: String?) {
    self.choices = record.choices
    self.steps = record.steps
    self.alternatives = record.alternatives
    self.failures = failures
    failingLength = failures.isEmpty ? nil : steps.count
    self.schedule = schedule
    // What the explorer collected is text only: a failure under interleavings is one kind.
    failureKind = nil
  }

  var failed: Bool { !failures.isEmpty }

  /// The run without the steps after its first failure.
  var truncated: Self {
    guard let failingLength else { return self }
    var run = self
    run.choices = Array(choices.prefix(failingLength))
    run.steps = Array(steps.prefix(failingLength))
    run.alternatives = Array(alternatives.prefix(failingLength))
    return run
  }

  var pin: ActionSequencePin { ActionSequencePin(choices: choices, schedule: schedule) }
}

/// Where the test stores of a generated sequence's run report: the run's own log, not the test.
enum GeneratedSequenceFailures {
  @TaskLocal static var collector: TestReporter?
}

/// A generated sequence that cannot run.
enum GeneratedSequenceError: Error, CustomStringConvertible {
  case noTestClock(String)

  var description: String {
    switch self {
    case let .noTestClock(type):
      "ActionChoice.advance moves the store's TestClock, but its \\.clock dependency is a \(type): set "
        + "`$0.clock = clock` with a TestClock in the store's dependencies."
    }
  }
}

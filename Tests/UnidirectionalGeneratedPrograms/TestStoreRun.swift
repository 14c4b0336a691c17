import Unidirectional
import UnidirectionalTesting

/// Runs a generated program under a `TestStore` on a `TestClock` and compares everything with the reference model:
/// the actions delivered (the `TestStore` receives each in the model's order and asserts the state after it, shared
/// value included), the final state, how every `run` ended, the runtime issues, and that the store holds nothing
/// once the test has finished.
///
/// Where the documentation leaves an order open, the model has several variants (``ProgramExpectation/variants(of:)``):
/// the program is first run without assertions to see which the store follows, then again, asserting that one.
///
/// ```swift
/// let program = ProgramGenerator(seed: 7).program()
/// #expect(await TestStoreRun.check(program) == nil)
/// ```
enum TestStoreRun {
  static func check(_ program: GeneratedProgram) async -> ProgramFailure? {
    await run(program).failure
  }

  /// How much of a program's run the documented semantics fix.
  enum Determinacy {
    /// One order: compared exactly.
    case fixed
    /// Several variants of the model (``ReferenceModel/Policy``): the store must match one exactly.
    case variants
    /// A cancellation woke two tasks whose ends lead somewhere, in an order nothing fixes
    /// (``ProgramExpectation/wakeOrderIsOpen``): only checked to keep nothing once finished.
    case wakeOrderOpen
  }

  /// The failure, if any, and how much of the run was compared.
  static func run(_ program: GeneratedProgram) async -> (failure: ProgramFailure?, determinacy: Determinacy) {
    let variants = ProgramExpectation.variants(of: program)
    if variants.contains(where: \.wakeOrderIsOpen) {
      let observed = await observe(program, asserting: nil)
      guard observed.bookkeeping == StoreBookkeeping() else {
        let message = "after finish() the store holds \(observed.bookkeeping)"
        return (ProgramFailure(kind: .bookkeeping, message: message), .wakeOrderOpen)
      }
      return (nil, .wakeOrderOpen)
    }
    guard variants.count > 1 else {
      return (compare(variants[0], await observe(program, asserting: variants[0])), .fixed)
    }
    let observed = await observe(program, asserting: nil)
    guard let matching = variants.first(where: { compare($0, observed) == nil }) else {
      let failure = compare(variants[0], observed)
      let every = failure.map { ProgramFailure(kind: $0.kind, message: $0.message + " (and every other variant)") }
      return (every, .variants)
    }
    return (compare(matching, await observe(program, asserting: matching)), .variants)
  }

  /// What a run of the program did.
  struct Observation {
    var delivered: [[GeneratedFeature.Action]] = []
    var final = ModelSnapshot()
    var outcomes: [RunID: RunOutcome] = [:]
    var failures: [String] = []
    var bookkeeping = StoreBookkeeping()
  }

  /// Runs the steps of the expectation's script; with `asserting`, exhaustively, receiving and asserting every
  /// action it expects; without, non-exhaustively, skipping whatever was received.
  static func observe(_ program: GeneratedProgram, asserting expectation: ProgramExpectation?) async -> Observation {
    let steps = (expectation ?? ProgramExpectation(program, policy: ReferenceModel.Policy.allCases[0])).steps
    let clock = TestClock()
    let environment = ProgramEnvironment(clock: clock)
    let failures = TestFailures()
    let store = TestStore(
      initialState: GeneratedFeature.State(),
      reducer: { GeneratedFeature(program: program, environment: environment) },
      withDependencies: { $0.clock = clock }, reporter: failures.reporter)
    if expectation == nil { store.exhaustivity = .off }
    var observation = Observation()
    var tasks: [Int: TestStoreTask] = [:]
    // The state as of the last assertion: an action that changes nothing is asserted without a closure.
    var asserted = ModelSnapshot()
    func assertion(_ snapshot: ModelSnapshot) -> ((inout GeneratedFeature.State) -> Void)? {
      defer { asserted = snapshot }
      return snapshot == asserted ? nil : { snapshot.apply(to: &$0) }
    }
    for step in steps {
      let before = environment.reducedCount
      switch step {
      case let .send(index, target, sent, _):
        let assert = expectation == nil ? nil : assertion(sent)
        tasks[index] = await store.send(GeneratedFeature.Action(target), assert: assert)
      case let .advance(milliseconds, _):
        await clock.advance(by: .milliseconds(milliseconds))
      case let .cancelTask(index, _):
        await tasks[index]?.cancel()
      case .runClock:
        await clock.run()
      }
      if expectation == nil {
        await store.skipReceivedActions(strict: false)
      } else {
        for reduced in step.received { await store.receive(reduced.action, assert: assertion(reduced.snapshot)) }
      }
      observation.delivered.append(environment.reduced(since: before))
    }
    await store.finish()
    observation.final = ModelSnapshot(store.state)
    observation.outcomes = environment.recorder.all
    observation.failures = failures.messages
    observation.bookkeeping = store.bookkeeping
    return observation
  }

  static func compare(_ expectation: ProgramExpectation, _ observation: Observation) -> ProgramFailure? {
    for (index, step) in expectation.steps.enumerated() {
      var expected = step.received.map(\.action)
      if case let .send(_, target, _, _) = step { expected.insert(GeneratedFeature.Action(target), at: 0) }
      let actual = index < observation.delivered.count ? observation.delivered[index] : []
      if expected != actual {
        return ProgramFailure(
          kind: .actions, message: "step \(index) (\(step.label)) delivered \(actual), the model \(expected)")
      }
    }
    if observation.final != expectation.final {
      return ProgramFailure(
        kind: .finalState, message: "final state \(observation.final), the model \(expectation.final)")
    }
    if let difference = outcomeDifference(expected: expectation.outcomes, actual: observation.outcomes) {
      return ProgramFailure(kind: .outcomes, message: difference)
    }
    let issues = observation.failures.filter(isRuntimeIssue)
    if issues.count != expectation.issues.count {
      return ProgramFailure(
        kind: .issues, message: "\(issues.count) runtime issues (\(issues)), the model \(expectation.issues)")
    }
    let others = observation.failures.filter { !isRuntimeIssue($0) }
    if let first = others.first {
      return ProgramFailure(kind: .testStore, message: "\(others.count) TestStore failures; the first: \(first)")
    }
    if observation.bookkeeping != StoreBookkeeping() {
      return ProgramFailure(kind: .bookkeeping, message: "after finish() the store holds \(observation.bookkeeping)")
    }
    return nil
  }

  /// Compares how runs ended. A run the store never started because it was cancelled first has no outcome: it
  /// counts as cancelled, on either side.
  static func outcomeDifference(expected: [RunID: RunOutcome], actual: [RunID: RunOutcome]) -> String? {
    for id in Set(expected.keys).union(actual.keys).sorted() {
      let model = expected[id] ?? .cancelled
      let store = actual[id] ?? .cancelled
      if model != store {
        return "run \(id) \(actual[id].map { "\($0)" } ?? "never began"), the model: "
          + (expected[id].map { "\($0)" } ?? "never began")
      }
    }
    return nil
  }

  /// Whether a failure is one of the library's runtime issues (a child action while the child is absent), which
  /// start by naming the reducer: `An "ifLet" at …`, `A "forEach" at …`.
  static func isRuntimeIssue(_ message: String) -> Bool {
    message.hasPrefix("An \"ifLet\" at ") || message.hasPrefix("A \"forEach\" at ")
  }
}

extension ProgramExpectation.Step {
  var label: String {
    switch self {
    case let .send(index, target, _, _): "script step \(index): send \(target)"
    case let .advance(milliseconds, _): "advance \(milliseconds) ms"
    case let .cancelTask(step, _): "cancel the task of step \(step)"
    case .runClock: "clock.run()"
    }
  }
}

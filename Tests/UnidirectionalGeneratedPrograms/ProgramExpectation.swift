/// What the reference model expects of a whole run of a program under one ``ReferenceModel/Policy``: each step of
/// the test with what it delivers, the steps that end it, and the end state.
///
/// The script's steps are followed by `clock.run()`, then `task.cancel()` on the task of every step that sent
/// something (a no-op for those whose effects have ended), then `finish()`: a test that ends with nothing in flight.
///
/// ```swift
/// let expectations = ProgramExpectation.variants(of: program)   // one per distinct outcome of the policies
/// for step in expectations[0].steps { … }
/// ```
struct ProgramExpectation {
  enum Step {
    /// Script step `index` sends `target`: the state after it, and what its effects fed back.
    case send(index: Int, target: RootTarget, sent: ModelSnapshot, received: [ReferenceModel.Reduced])
    case advance(milliseconds: Int, received: [ReferenceModel.Reduced])
    case cancelTask(ofStep: Int, received: [ReferenceModel.Reduced])
    case runClock(received: [ReferenceModel.Reduced])

    var received: [ReferenceModel.Reduced] {
      switch self {
      case let .send(_, _, _, received), let .advance(_, received), let .cancelTask(_, received),
        let .runClock(received):
        received
      }
    }
  }

  var steps: [Step] = []
  var final = ModelSnapshot()
  var outcomes: [RunID: RunOutcome] = [:]
  var issues: [String] = []
  /// One cancellation woke two tasks whose ends lead somewhere (``ReferenceModel/wakeOrderIsOpen``): the store is
  /// only checked to keep nothing once the test has finished.
  var wakeOrderIsOpen = false

  /// The expectations of every ``ReferenceModel/Policy``, without repeats: one when the documented semantics fix
  /// everything the program does.
  static func variants(of program: GeneratedProgram) -> [ProgramExpectation] {
    var variants: [ProgramExpectation] = []
    for policy in ReferenceModel.Policy.allCases {
      let expectation = ProgramExpectation(program, policy: policy)
      if !variants.contains(where: { $0.isSame(as: expectation) }) { variants.append(expectation) }
    }
    return variants
  }

  init(_ program: GeneratedProgram, policy: ReferenceModel.Policy) {
    let model = ReferenceModel(program, policy: policy)
    var sendSteps: Set<Int> = []
    for (index, step) in program.script.enumerated() {
      switch step {
      case let .send(target):
        let (sent, received) = model.send(target, step: index)
        steps.append(.send(index: index, target: target, sent: sent, received: received))
        sendSteps.insert(index)
      case let .advance(milliseconds):
        steps.append(.advance(milliseconds: milliseconds, received: model.advance(by: milliseconds)))
      case let .cancelTask(step):
        // A step that is not an earlier send has no task: nothing to cancel.
        guard sendSteps.contains(step) else { continue }
        steps.append(.cancelTask(ofStep: step, received: model.cancelTask(ofStep: step)))
      }
    }
    steps.append(.runClock(received: model.runClock()))
    for step in sendSteps.sorted() {
      steps.append(.cancelTask(ofStep: step, received: model.cancelTask(ofStep: step)))
    }
    final = model.snapshot
    outcomes = model.outcomes
    issues = model.issues
    wakeOrderIsOpen = model.wakeOrderIsOpen
  }

  /// Whether the two expect the same actions, state, outcomes and issues.
  func isSame(as other: ProgramExpectation) -> Bool {
    final == other.final && outcomes == other.outcomes && issues == other.issues
      && steps.map { $0.received.map(\.action) } == other.steps.map { $0.received.map(\.action) }
  }
}

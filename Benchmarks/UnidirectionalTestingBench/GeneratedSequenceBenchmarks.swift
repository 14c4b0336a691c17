import Unidirectional
import UnidirectionalTesting

// Generated action sequences: one sequence of 10 steps, chosen by `exploreActions` and checked after each step, next
// to the same 10 steps written by hand on a non-exhaustive test store (the baseline).

/// A counter a user steps up, down and back to zero, with a check that it stays within the steps taken.
struct Stepper: Reducer {
  struct State: Equatable { var value = 0 }
  enum Action: Equatable, Sendable { case up(Int), down(Int), reset }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .up(amount): state.value += amount
    case let .down(amount): state.value -= amount
    case .reset: state.value = 0
    }
    return .none
  }
}

/// The steps of one sequence.
let stepsPerSequence = 10

var stepperActions: ActionGenerator<Stepper.State, Stepper.Action> {
  ActionGenerator { _ in
    [
      ActionChoice(weight: 3, 1...3, Stepper.Action.up),
      ActionChoice(weight: 3, 1...3, Stepper.Action.down),
      ActionChoice(.reset),
    ]
  }
}

/// `count` generated sequences, each on a fresh store, checked against a model after every step.
func generatedSequences(_ count: Int) async {
  let report = await exploreActions(
    .random(seed: 1, sequences: count, length: stepsPerSequence), generating: stepperActions, model: 0
  ) {
    TestStore(initialState: Stepper.State()) { Stepper() }
  } update: { value, step in
    switch step {
    case let .send(.up(amount)): value += amount
    case let .send(.down(amount)): value -= amount
    case .send(.reset): value = 0
    case .advance: break
    }
  } check: { state, value in
    if state.value != value { fatalError("the stepper is at \(state.value), not \(value)") }
  }
  if report.sequencesRun != count || report.failingSequence != nil { fatalError("a generated sequence failed") }
}

/// `count` sequences of the same length written by hand: a fresh non-exhaustive store, its sends.
func handwrittenSequences(_ count: Int) async {
  for _ in 0..<count {
    let store = TestStore(initialState: Stepper.State()) { Stepper() }
    store.exhaustivity = .off
    for step in 0..<stepsPerSequence { await store.send(step % 3 == 2 ? .reset : .up(1)) }
  }
}

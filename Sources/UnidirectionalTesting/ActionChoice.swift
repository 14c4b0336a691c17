/// One way a generated step can go: how likely it is (its weight among the choices of the step), and the steps it
/// may take, simplest first — shrinking a failing sequence tries the earlier ones.
///
/// ```swift
/// ActionChoice(weight: 5, ["Milk", "", "A title long enough to wrap"].map(Todos.Action.add))
/// ActionChoice(weight: 2, state.todos.ids.map(Todos.Action.delete))   // none: not a choice in this state
/// ActionChoice(.undoTapped)
/// ActionChoice.advance(by: [.milliseconds(300), .seconds(5)])        // moves the store's TestClock
/// ```
public struct ActionChoice<Action> {
  /// How often this choice is taken, relative to the others of the step.
  let weight: Int
  /// How many steps it can take (0: it is not available).
  let count: Int
  /// Its step number `index`, `0..<count`; 0 is the simplest.
  let step: (_ index: Int) -> GeneratedStep<Action>

  /// Sends `action`.
  public init(weight: Int = 1, _ action: Action) {
    self.weight = weight
    self.count = 1
    self.step = { _ in .send(action) }
  }

  /// Sends one of `actions`, the simplest first. Empty: the choice is not available in this state (and keeps its
  /// place among the choices, so a recorded sequence still means the same choices).
  public init(weight: Int = 1, _ actions: [Action]) {
    self.init(weight: weight, actions) { $0 }
  }

  /// Sends `action(payload)` for one of `payloads`, the simplest first: `ActionChoice(weight: 3, 0...100,
  /// Counter.Action.set)` shrinks a failing `set(73)` towards `set(0)`.
  public init<Payloads: RandomAccessCollection>(
    weight: Int = 1, _ payloads: Payloads, _ action: @escaping (Payloads.Element) -> Action
  ) {
    self.weight = weight
    self.count = payloads.count
    self.step = { index in .send(action(payloads[payloads.index(payloads.startIndex, offsetBy: index)])) }
  }

  private init(weight: Int, count: Int, step: @escaping (Int) -> GeneratedStep<Action>) {
    self.weight = weight
    self.count = count
    self.step = step
  }

  /// Moves the test store's `TestClock` (its `\.clock` dependency) by one of `durations`, the simplest first: the
  /// effects waiting on it run, and the actions they send are reduced, before the next step.
  public static func advance(weight: Int = 1, by durations: [Duration]) -> Self {
    Self(weight: weight, count: durations.count) { .advance(durations[$0]) }
  }

  /// Whether the choice can be taken.
  var isAvailable: Bool { weight > 0 && count > 0 }
}

/// What a generated step does: sends an action, or moves the test store's clock.
///
/// A model updated alongside the store (``exploreActions(_:generating:model:replaying:interleavings:reporter:fileID:filePath:line:column:store:update:check:)``)
/// gets each step to apply:
///
/// ```swift
/// } update: { count, step in
///   switch step {
///   case .send(.incrementTapped): count += 1
///   case .send, .advance: break
///   }
/// }
/// ```
public enum GeneratedStep<Action> {
  /// `await store.send(action)`.
  case send(Action)
  /// `await clock.advance(by: duration)` on the store's `TestClock`.
  case advance(Duration)
}

extension GeneratedStep: Sendable where Action: Sendable {}
extension GeneratedStep: Equatable where Action: Equatable {}

/// The actions a generated sequence may take next, given the state the store is in: a list of weighted
/// ``ActionChoice``s, so that a todo list adds more often than it clears and deletes only what exists.
///
/// ```swift
/// let todoActions = ActionGenerator<Todos.State, Todos.Action> { state in
///   [
///     ActionChoice(weight: 5, ["Milk", "", "Eggs"].map(Todos.Action.add)),
///     ActionChoice(weight: 2, state.todos.ids.map(Todos.Action.delete)),
///     ActionChoice(weight: 1, [.filter(.all), .filter(.active), .filter(.completed)]),
///     ActionChoice(.undo),
///   ]
/// }
/// ```
///
/// Keep the list the same length in every state (an empty choice for one not available now), the simplest
/// payloads first: a sequence is recorded as which choice and which payload each step took, so that shrinking and
/// a pinned replay mean the same choices.
public struct ActionGenerator<State, Action> {
  let choices: (State) -> [ActionChoice<Action>]

  /// A generator whose choices depend on `state`.
  public init(_ choices: @escaping (_ state: State) -> [ActionChoice<Action>]) {
    self.choices = choices
  }
}

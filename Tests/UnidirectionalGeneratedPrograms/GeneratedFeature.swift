import Unidirectional

/// The root reducer of a generated program: its own rules, a scoped child, an optional child, rows and a presented
/// destination, composed as a feature would compose them.
///
/// ```swift
/// let store = TestStore(initialState: GeneratedFeature.State()) {
///   GeneratedFeature(program: program, environment: environment)
/// }
/// ```
struct GeneratedFeature: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var last = -1
    @Shared var total: Int
    var scoped: GeneratedChild.State
    var optional: GeneratedChild.State?
    var rows: IdentifiedArrayOf<GeneratedChild.State> = []
    @PresentationState var destination: GeneratedChild.State?

    init() {
      let total = Shared(value: 0)
      _total = total
      scoped = GeneratedChild.State(id: 0, total: total)
    }

    func child(id: Int) -> GeneratedChild.State { GeneratedChild.State(id: id, total: $total) }
  }

  enum Action: Hashable, Sendable {
    case step(Int)
    case scoped(GeneratedChild.Action)
    case optional(GeneratedChild.Action)
    case row(id: Int, action: GeneratedChild.Action)
    case destination(PresentationAction<GeneratedChild.Action>)
    case structural(Structural)

    static let scopedCase = CasePath(Action.scoped) { if case let .scoped(action) = $0 { action } else { nil } }
    static let optionalCase = CasePath(Action.optional) { if case let .optional(action) = $0 { action } else { nil } }
    static let rowCase = CasePath<Action, (id: Int, action: GeneratedChild.Action)>({
      .row(id: $0.id, action: $0.action)
    }) {
      if case let .row(id, action) = $0 { (id, action) } else { nil }
    }
    static let destinationCase = CasePath(Action.destination) {
      if case let .destination(action) = $0 { action } else { nil }
    }

    init(_ target: RootTarget) {
      switch target {
      case let .step(rule): self = .step(rule)
      case let .child(.scoped, rule): self = .scoped(.step(rule))
      case let .child(.optional, rule): self = .optional(.step(rule))
      case let .child(.row(id), rule): self = .row(id: id, action: .step(rule))
      case let .child(.destination, rule): self = .destination(.presented(.step(rule)))
      case let .structural(change): self = .structural(change)
      case .dismissDestination: self = .destination(.dismiss)
      }
    }
  }

  let program: GeneratedProgram
  let environment: ProgramEnvironment

  var body: some Reducer<State, Action> {
    Reduce { _, action in
      environment.beginReduction(of: action)
      return .none
    }
    Scope(state: \.scoped, action: Action.scopedCase) { child(.scoped) }
    Reduce { state, action in reduceRoot(&state, action) }
      .ifLet(\.optional, action: Action.optionalCase) { child(.optional) }
      .forEach(\.rows, action: Action.rowCase) { child(.row) }
      .ifLet(\.$destination, action: Action.destinationCase) { child(.destination) }
  }

  private func child(_ kind: ChildKind) -> GeneratedChild {
    GeneratedChild(kind: kind, rules: program.rules(of: kind), environment: environment)
  }

  private func reduceRoot(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case let .step(index):
      guard program.rootRules.indices.contains(index) else { return .none }
      let rule = program.rootRules[index]
      state.count += 1
      state.last = index
      if rule.writesShared { state.$total.withLock { $0 += 1 } }
      if let change = rule.structural { apply(change, to: &state) }
      let lastRule = program.rootRules.count - 1
      var builder = EffectBuilder<Action, RootTarget>(
        environment: environment, embed: { Action($0) }, shift: { $0.shifted(by: $1, lastRule: lastRule) },
        dismiss: nil, isNamespaced: false)
      return builder.build(rule.effect)
    case let .structural(change):
      apply(change, to: &state)
      return .none
    case .scoped, .optional, .row, .destination:
      return .none
    }
  }

  private func apply(_ change: Structural, to state: inout State) {
    switch change {
    case let .presentOptional(id): state.optional = state.child(id: id)
    case .clearOptional: state.optional = nil
    case let .addRow(id): if state.rows[id: id] == nil { state.rows.append(state.child(id: id)) }
    case let .removeRow(id): state.rows.remove(id: id)
    case let .present(id): state.destination = state.child(id: id)
    case .clearDestination: state.destination = nil
    }
  }
}

extension GeneratedFeature.Action {
  /// The `map` transform: a root rule's index moves up by `shift` (at most to the last rule); other actions stay.
  func shifted(by shift: Int, lastRule: Int) -> Self {
    guard case let .step(index) = self else { return self }
    return .step(shiftedRule(index, by: shift, lastRule: lastRule))
  }
}

/// The child reducer of a generated program (one per slot kind, each with its rules).
struct GeneratedChild: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var count = 0
    var last = -1
    @Shared var total: Int

    init(id: Int, count: Int = 0, last: Int = -1, total: Shared<Int>) {
      self.id = id
      self.count = count
      self.last = last
      _total = total
    }
  }

  enum Action: Hashable, Sendable {
    case step(Int)

    func shifted(by shift: Int, lastRule: Int) -> Self {
      guard case let .step(index) = self else { return self }
      return .step(shiftedRule(index, by: shift, lastRule: lastRule))
    }
  }

  let kind: ChildKind
  let rules: [Rule<Int>]
  let environment: ProgramEnvironment
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case let .step(index) = action, rules.indices.contains(index) else { return .none }
    let rule = rules[index]
    state.count += 1
    state.last = index
    if rule.writesShared { state.$total.withLock { $0 += 1 } }
    let lastRule = rules.count - 1
    var builder = EffectBuilder<Action, Int>(
      environment: environment, embed: { .step($0) }, shift: { $0.shifted(by: $1, lastRule: lastRule) },
      dismiss: dismiss, isNamespaced: kind != .scoped)
    return builder.build(rule.effect)
  }
}

extension GeneratedFeature.Action: CustomStringConvertible {
  var description: String {
    switch self {
    case let .step(rule): ".step(\(rule))"
    case let .scoped(action): ".scoped(\(action))"
    case let .optional(action): ".optional(\(action))"
    case let .row(id, action): ".row(id: \(id), action: \(action))"
    case .destination(.dismiss): ".destination(.dismiss)"
    case let .destination(.presented(action)): ".destination(.presented(\(action)))"
    case let .structural(change): ".structural(\(ProgramSource.source(change)))"
    }
  }
}

extension GeneratedChild.Action: CustomStringConvertible {
  var description: String {
    switch self {
    case let .step(rule): ".step(\(rule))"
    }
  }
}

/// A pure simulation of a generated program, written from the library's documented semantics (not from its code):
/// the state, the actions each step delivers in order, how every `run` effect ends, the runtime issues reported.
///
/// It keeps virtual time, a first-in-first-out queue of ready tasks (the `TestRuntime` runs effect jobs one at a
/// time, in the order they became ready), and a clock whose sleepers wake in deadline order, ties in the order they
/// went to sleep. Reducing follows the composition of ``GeneratedFeature``; running effects follows
/// ``ReferenceModel/startSynchronously(_:keys:reduction:batch:)`` and ``ModelTask``. Where the documentation leaves
/// an order open, a ``Policy`` chooses; a store must match the model under one of them.
///
/// ```swift
/// let model = ReferenceModel(program)
/// let sent = model.send(.step(0), step: 0)   // the state after the action, and what its effects fed back
/// let woken = model.advance(by: 100)
/// ```
final class ReferenceModel {
  /// An action the store reduced, with the state right after it.
  struct Reduced: CustomStringConvertible {
    let action: GeneratedFeature.Action
    let snapshot: ModelSnapshot
    var description: String { "\(action) → \(snapshot)" }
  }

  /// An order the documentation leaves open: where a task woken by a cancellation made inside a `send` (a sleeper,
  /// `Task.never()`, a stream) becomes ready — at the cancellation, or when the `send`'s synchronous work is done,
  /// after the tasks it started.
  struct Policy: Hashable, CaseIterable {
    var wakesCancelledAfterTheSend: Bool

    static let allCases = [Policy(wakesCancelledAfterTheSend: false), Policy(wakesCancelledAfterTheSend: true)]
  }

  let program: GeneratedProgram
  private(set) var snapshot = ModelSnapshot()
  /// How each `run` ended; a run that never began has no entry.
  var outcomes: [RunID: RunOutcome] = [:]
  /// The runtime issues reported (a child action while the child is absent).
  private(set) var issues: [String] = []
  let policy: Policy
  /// Set while a `send`'s synchronous work runs: cancellations it makes wake tasks at its end (``Policy``).
  var sendDepth = 0
  var hasDeferredWakes = false

  /// The identity of the presented destination as of the last action (`PresentationState.presentedID`).
  private var presentedID: Int?
  private var reductions = -1
  /// Actions reduced since the last step's were taken.
  var received: [Reduced] = []

  // The scheduler (see ReferenceModel+Tasks.swift).
  var now = 0
  var ready: [ModelTask] = []
  var readyHead = 0
  var sleepers: [ModelSleeper] = []
  /// Tasks waiting to be cancelled (`Task.never()`, a stream), with the order they suspended in.
  var waiters: [(Int, ModelTask)] = []
  var nextSuspension = 0
  var nextSerial = 0
  /// Set when one cancellation woke two tasks whose ends lead somewhere: the order they wake in is not documented
  /// (and the store's is a hash table's), so what follows is not fixed either.
  var wakeOrderIsOpen = false
  var registry: [ModelCancelKey: [ModelTask]] = [:]
  /// The tasks each script step's `send` started: what cancelling its task reaches (with what they caused).
  var stepTasks: [Int: [ModelTask]] = [:]

  init(_ program: GeneratedProgram, policy: Policy = Policy.allCases[0]) {
    self.program = program
    self.policy = policy
  }

  // MARK: Steps

  /// `store.send(target)` as step `step` of the script: the state after the action, and the actions fed back until
  /// every effect is suspended again.
  func send(_ target: RootTarget, step: Int) -> (sent: ModelSnapshot, received: [Reduced]) {
    let batch = ModelBatch(cause: nil)
    var sent = snapshot
    synchronously {
      let effect = reduce(target)
      sent = snapshot
      startSynchronously(effect, keys: [], reduction: 0, batch: batch)
    }
    stepTasks[step] = batch.started
    runUntilIdle()
    return (sent, takeReceived())
  }

  /// `clock.advance(by:)`.
  func advance(by milliseconds: Int) -> [Reduced] {
    advance(to: now + milliseconds)
    return takeReceived()
  }

  /// `clock.run()`: advances to each next deadline until nothing sleeps.
  func runClock() -> [Reduced] {
    while let next = sleepers.first { advance(to: next.deadline) }
    return takeReceived()
  }

  /// `task.cancel()` on the task of script step `step`: cancels the effects it started and everything they caused.
  func cancelTask(ofStep step: Int) -> [Reduced] {
    cancelTrees(stepTasks[step] ?? [])
    runUntilIdle()
    return takeReceived()
  }

  private func takeReceived() -> [Reduced] {
    defer { received.removeAll() }
    return received
  }

  // MARK: Reducing

  /// Delivers `target` to the store from inside a batch: reduced at once, depth-first.
  func deliver(_ target: RootTarget, batch: ModelBatch) {
    batch.reductions += 1
    let reduction = batch.reductions
    let effect = reduce(target)
    received.append(Reduced(action: GeneratedFeature.Action(target), snapshot: snapshot))
    startSynchronously(effect, keys: [], reduction: reduction, batch: batch)
  }

  /// The composed reducer: `Scope(\.scoped)` first, then the presentation's `ifLet` around the rows' `forEach`
  /// around the optional's `ifLet` around the root's own rules; each merges the child's effect before its parent's
  /// and appends the cancellation of a child that went away.
  private func reduce(_ target: RootTarget) -> ModelEffect {
    reductions += 1
    var scoped = ModelEffect.none
    if case let .child(.scoped, rule) = target {
      (snapshot.scoped, scoped) = reduceChild(.scoped, rule: rule, child: snapshot.scoped, namespace: nil)
    }
    return .merged([scoped, reducePresentation(target)])
  }

  /// `ifLet(\.$destination)`: "The child's effects are cancelled when it goes away: its state set to nil (by any
  /// reducer, noticed at the next action this reducer sees), `.dismiss` sent by the parent or by the child itself,
  /// or the child replaced by a different child". "A child action while nothing is presented is a runtime issue
  /// and changes nothing."
  private func reducePresentation(_ target: RootTarget) -> ModelEffect {
    let initial = snapshot.destination?.id
    var destination = ModelEffect.none
    let base: ModelEffect
    switch (initial, target) {
    case (let identity?, .dismissDestination):
      base = reduceRows(target)
      if snapshot.destination?.id == identity { snapshot.destination = nil }
    case (let identity?, .child(.destination, let rule)):
      let child = snapshot.destination ?? ModelSnapshot.Child(id: identity)
      let namespace = ModelNamespace(kind: .destination, id: identity)
      (snapshot.destination, destination) = reduceChild(.destination, rule: rule, child: child, namespace: namespace)
      base = reduceRows(target)
    case (nil, .dismissDestination), (nil, .child(.destination, _)):
      issues.append("presentation action without a destination: \(target)")
      base = reduceRows(target)
    default:
      base = reduceRows(target)
    }
    let final = snapshot.destination?.id
    guard final != presentedID else { return .merged([destination, base]) }
    let dismissal = presentedID.map { ModelEffect.cancel(.namespace(.destination, $0)) } ?? .none
    presentedID = final
    return .merged([destination, base, dismissal])
  }

  /// `forEach(\.rows)`: "Effects of an element are cancelled when the parent removes it. An action for an id that
  /// is not in the collection is reported as a runtime issue."
  private func reduceRows(_ target: RootTarget) -> ModelEffect {
    var element = ModelEffect.none
    if case let .child(.row(id), rule) = target {
      if let index = snapshot.rows.firstIndex(where: { $0.id == id }) {
        let namespace = ModelNamespace(kind: .row, id: id)
        (snapshot.rows[index], element) = reduceChild(
          .row(id), rule: rule, child: snapshot.rows[index], namespace: namespace)
      } else {
        issues.append("action for a missing row: \(target)")
      }
    }
    let before = snapshot.rows.map(\.id)
    let parent = reduceOptional(target)
    let after = Set(snapshot.rows.map(\.id))
    let removals = before.filter { !after.contains($0) }.map { ModelEffect.cancel(.namespace(.row, $0)) }
    return .merged([element, parent] + removals)
  }

  /// `ifLet(\.optional)`: "When the child goes away — set to nil, or replaced by a child with another
  /// `Identifiable.id` — every effect it started is cancelled. A child action that arrives while the child state is
  /// nil is reported as a runtime issue."
  private func reduceOptional(_ target: RootTarget) -> ModelEffect {
    let before = snapshot.optional?.id
    var child = ModelEffect.none
    if case let .child(.optional, rule) = target {
      if let before, let optional = snapshot.optional {
        let namespace = ModelNamespace(kind: .optional, id: before)
        (snapshot.optional, child) = reduceChild(.optional, rule: rule, child: optional, namespace: namespace)
      } else {
        issues.append("optional child action without state: \(target)")
      }
    }
    let parent = reduceRoot(target)
    guard let before, snapshot.optional?.id != before else { return .merged([child, parent]) }
    return .merged([child, parent, .cancel(.namespace(.optional, before))])
  }

  private func reduceRoot(_ target: RootTarget) -> ModelEffect {
    switch target {
    case let .step(index):
      guard program.rootRules.indices.contains(index) else { return .none }
      let rule = program.rootRules[index]
      snapshot.count += 1
      snapshot.last = index
      if rule.writesShared { snapshot.total += 1 }
      if let change = rule.structural { apply(change) }
      let lastRule = program.rootRules.count - 1
      var conversion = ModelEffectConversion<RootTarget>(reduction: reductions, path: []) { target, shift in
        guard shift > 0, case let .step(index) = target else { return target }
        return .step(shiftedRule(index, by: shift, lastRule: lastRule))
      }
      return conversion.convert(rule.effect)
    case let .structural(change):
      apply(change)
      return .none
    case .child, .dismissDestination:
      return .none
    }
  }

  private func apply(_ change: Structural) {
    switch change {
    case let .presentOptional(id): snapshot.optional = ModelSnapshot.Child(id: id)
    case .clearOptional: snapshot.optional = nil
    case let .addRow(id):
      if !snapshot.rows.contains(where: { $0.id == id }) { snapshot.rows.append(ModelSnapshot.Child(id: id)) }
    case let .removeRow(id): snapshot.rows.removeAll { $0.id == id }
    case let .present(id): snapshot.destination = ModelSnapshot.Child(id: id)
    case .clearDestination: snapshot.destination = nil
    }
  }

  /// A child's rule; its effect namespaced (`namespace`) and made cancellable as a whole by the namespace.
  private func reduceChild(
    _ slot: ChildSlot, rule index: Int, child: ModelSnapshot.Child, namespace: ModelNamespace?
  ) -> (ModelSnapshot.Child, ModelEffect) {
    let rules = program.rules(of: slot.kind)
    guard rules.indices.contains(index) else { return (child, .none) }
    let rule = rules[index]
    var child = child
    child.count += 1
    child.last = index
    if rule.writesShared { snapshot.total += 1 }
    let lastRule = rules.count - 1
    var conversion = ModelEffectConversion<Int>(reduction: reductions, path: namespace.map { [$0] } ?? []) {
      .child(slot, shiftedRule($0, by: $1, lastRule: lastRule))
    }
    let effect = conversion.convert(rule.effect)
    guard let namespace, !effect.isNone else { return (child, effect) }
    return (child, .cancellable(.namespace(namespace.kind, namespace.id), cancelInFlight: false, effect))
  }
}

extension ModelCancelKey {
  /// The id of everything the child at `kind`/`id` started.
  static func namespace(_ kind: ChildKind, _ id: Int) -> ModelCancelKey {
    ModelCancelKey(id: .namespace(ModelNamespace(kind: kind, id: id)), path: [])
  }
}

/// An effect as the reference model runs it: targets resolved to root actions, `map` applied to them, `debounce`
/// spelled out, ids namespaced, every `run` named.
///
/// ```swift
/// var conversion = ModelEffectConversion(reduction: 3, path: [], target: { .step($0) })
/// let effect = conversion.convert(rule.effect)
/// ```
indirect enum ModelEffect {
  case none
  case send(RootTarget)
  case run(ModelRun)
  case merge([ModelEffect])
  case concatenate([ModelEffect])
  case cancellable(ModelCancelKey, cancelInFlight: Bool, ModelEffect)
  case cancel(ModelCancelKey)

  /// Whether it is one `run`: a concatenation runs such a part inside its own task.
  var isRun: Bool {
    if case .run = self { return true }
    return false
  }

  /// `Effect.merge`: `.none` parts dropped, one part is itself.
  static func merged(_ effects: [ModelEffect]) -> ModelEffect {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return .merge(effects)
    }
  }

  var isNone: Bool {
    if case .none = self { return true }
    return false
  }
}

/// A `run` effect for the model. `id` is nil for the sleep a `debounce` adds.
struct ModelRun {
  let id: RunID?
  let steps: [RunStep<RootTarget>]
  let caught: RootTarget?
  /// The namespace `Task.cancel(id:)` inside it uses.
  let path: [ModelNamespace]
}

/// The part of the state an `ifLet`, `forEach` or presentation reducer namespaces its child's effects by.
struct ModelNamespace: Hashable {
  let kind: ChildKind
  let id: Int
}

/// A cancellation id with its namespace: a generated id, or the id of everything a child started.
struct ModelCancelKey: Hashable {
  enum ID: Hashable {
    case generated(Int)
    case namespace(ModelNamespace)
  }

  let id: ID
  let path: [ModelNamespace]

  /// "the id in its own namespace and in every enclosing one, so a parent's `.cancel(id:)` also reaches the effects
  /// its presented children started with that id (as in TCA), while a child's never reaches its parent's or a
  /// sibling's. The id of a whole scope is registered as itself only." (`CancelID.registrationKeys`)
  var registrationKeys: [ModelCancelKey] {
    guard case .generated = id else { return [self] }
    return (0...path.count).reversed().map { ModelCancelKey(id: id, path: Array(path.prefix($0))) }
  }
}

/// Turns an ``EffectSpec`` returned by one reduction into a ``ModelEffect``, numbering its runs as
/// ``EffectBuilder`` does.
struct ModelEffectConversion<Target: Hashable & Sendable> {
  let reduction: Int
  let path: [ModelNamespace]
  /// The root action a target names after `shift` rule indices of `map`.
  let target: (Target, Int) -> RootTarget
  private var runs = 0

  init(reduction: Int, path: [ModelNamespace], target: @escaping (Target, Int) -> RootTarget) {
    self.reduction = reduction
    self.path = path
    self.target = target
  }

  mutating func convert(_ spec: EffectSpec<Target>, shift: Int = 0) -> ModelEffect {
    switch spec {
    case .none:
      return .none
    case let .send(sent):
      return .send(target(sent, shift))
    case let .run(run):
      defer { runs += 1 }
      let steps = run.steps.map { $0.mapTarget { target($0, shift) } }
      return .run(
        ModelRun(
          id: RunID(reduction: reduction, index: runs), steps: steps, caught: run.caught.map { target($0, shift) },
          path: path))
    case let .merge(effects):
      var converted: [ModelEffect] = []
      for effect in effects { converted.append(convert(effect, shift: shift)) }
      return .merged(converted)
    case let .concatenate(effects):
      var converted: [ModelEffect] = []
      for effect in effects { converted.append(convert(effect, shift: shift)) }
      let parts = converted.filter { !$0.isNone }
      return parts.isEmpty ? .none : parts.count == 1 ? parts[0] : .concatenate(parts)
    case let .cancellable(id, cancelInFlight, effect):
      let inner = convert(effect, shift: shift)
      // `Effect.cancellable` on `.none` without cancelInFlight is `.none`.
      if inner.isNone && !cancelInFlight { return .none }
      return .cancellable(key(id), cancelInFlight: cancelInFlight, inner)
    case let .cancel(id):
      return .cancel(key(id))
    case let .debounce(id, milliseconds, effect):
      // "Delays this effect by `duration` on `clock`, cancelling a pending one with the same `id`: only the last
      // of a burst runs." A burst ending in nothing cancels the pending one.
      let inner = convert(effect, shift: shift)
      if inner.isNone { return .cancel(key(id)) }
      let delay = ModelRun(id: nil, steps: [.sleep(milliseconds: milliseconds)], caught: nil, path: path)
      return .cancellable(key(id), cancelInFlight: true, .concatenate([.run(delay), inner]))
    case let .map(amount, effect):
      return convert(effect, shift: shift + amount)
    }
  }

  private func key(_ id: Int) -> ModelCancelKey { ModelCancelKey(id: .generated(id), path: path) }
}

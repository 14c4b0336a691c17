/// A description of an effect, built into a real `Effect` by ``EffectBuilder`` and run by the ``ReferenceModel``.
///
/// `Target` is what a `send` names: a ``RootTarget`` at the root, a child rule's index in a child.
///
/// ```swift
/// let spec = EffectSpec<Int>.cancellable(
///   id: 0, cancelInFlight: true, .run(RunSpec(steps: [.sleep(milliseconds: 10), .send(2)])))
/// ```
indirect enum EffectSpec<Target: Hashable & Sendable>: Hashable, Sendable {
  case none
  case send(Target)
  case run(RunSpec<Target>)
  case merge([EffectSpec])
  case concatenate([EffectSpec])
  case cancellable(id: Int, cancelInFlight: Bool, EffectSpec)
  case cancel(id: Int)
  case debounce(id: Int, milliseconds: Int, EffectSpec)
  /// The inner effect's actions, transformed: a rule index moves up by `shift` (``shiftedRule(_:by:lastRule:)``).
  case map(shift: Int, EffectSpec)

  /// How many nodes the tree has (the shrinker's measure).
  var size: Int {
    switch self {
    case .none, .send, .cancel: 1
    case let .run(run): 1 + run.steps.count
    case let .merge(effects), let .concatenate(effects): 1 + effects.reduce(0) { $0 + $1.size }
    case let .cancellable(_, _, effect), let .debounce(_, _, effect), let .map(_, effect): 1 + effect.size
    }
  }

  /// The `run` nodes in the order an ``EffectBuilder`` numbers them (pre-order).
  var runCount: Int {
    switch self {
    case .none, .send, .cancel: 0
    case .run: 1
    case let .merge(effects), let .concatenate(effects): effects.reduce(0) { $0 + $1.runCount }
    case let .cancellable(_, _, effect), let .debounce(_, _, effect), let .map(_, effect): effect.runCount
    }
  }
}

/// The asynchronous work of a `run`: steps done in order, and what its error handler sends.
struct RunSpec<Target: Hashable & Sendable>: Hashable, Sendable {
  var steps: [RunStep<Target>]
  /// What the `catch:` handler sends when a `fail` step throws (nil: no handler, and no `fail` step).
  var caught: Target?

  init(steps: [RunStep<Target>], caught: Target? = nil) {
    self.steps = steps
    self.caught = caught
  }
}

/// One step of a `run` effect's operation.
enum RunStep<Target: Hashable & Sendable>: Hashable, Sendable {
  /// `send(action)`: delivered unless the effect is cancelled.
  case send(Target)
  /// `try await clock.sleep(for:)` on the program's `TestClock`.
  case sleep(milliseconds: Int)
  /// `try Task.checkCancellation()`.
  case checkCancellation
  /// Throws an error that is not a cancellation: the handler (``RunSpec/caught``) runs.
  case fail
  /// `try await Task.never()`: waits until cancelled, then throws `CancellationError`.
  case never
  /// A long-living stream that never yields: `for await` ends when the effect is cancelled, and the run goes on.
  case stream
  /// `await Task.cancel(id:)` from inside the effect, in its namespace.
  case cancel(id: Int)
  /// `await dismiss()` (`@Dependency(\.dismiss)`): only in a presented child's rules.
  case dismiss
}

/// The `map` transform of a rule index: up by `shift`, at most to the last rule. An index past the last rule (a
/// rule the shrinker removed) stays as it is: it names no rule, and must not come back as a lower one (a rule
/// sending itself would never end).
func shiftedRule(_ index: Int, by shift: Int, lastRule: Int) -> Int {
  index > lastRule ? index : min(index + shift, lastRule)
}

extension EffectSpec {
  /// The same tree with every target (sends, run sends, handlers) transformed.
  func mapTargets<Other>(_ transform: (Target) -> Other) -> EffectSpec<Other> {
    switch self {
    case .none: .none
    case let .send(target): .send(transform(target))
    case let .run(run): .run(run.mapTargets(transform))
    case let .merge(effects): .merge(effects.map { $0.mapTargets(transform) })
    case let .concatenate(effects): .concatenate(effects.map { $0.mapTargets(transform) })
    case let .cancellable(id, cancelInFlight, effect):
      .cancellable(id: id, cancelInFlight: cancelInFlight, effect.mapTargets(transform))
    case let .cancel(id): .cancel(id: id)
    case let .debounce(id, milliseconds, effect):
      .debounce(id: id, milliseconds: milliseconds, effect.mapTargets(transform))
    case let .map(shift, effect): .map(shift: shift, effect.mapTargets(transform))
    }
  }
}

extension RunSpec {
  func mapTargets<Other>(_ transform: (Target) -> Other) -> RunSpec<Other> {
    RunSpec<Other>(steps: steps.map { $0.mapTarget(transform) }, caught: caught.map(transform))
  }
}

extension RunStep {
  /// The same step, sending `transform(target)` if it sends.
  func mapTarget<Other>(_ transform: (Target) -> Other) -> RunStep<Other> {
    switch self {
    case let .send(target): .send(transform(target))
    case let .sleep(milliseconds): .sleep(milliseconds: milliseconds)
    case .checkCancellation: .checkCancellation
    case .fail: .fail
    case .never: .never
    case .stream: .stream
    case let .cancel(id): .cancel(id: id)
    case .dismiss: .dismiss
    }
  }
}

import Unidirectional

/// Builds the real `Effect` an ``EffectSpec`` describes, numbering its `run` effects in pre-order so the reference
/// model can name the same ones.
///
/// ```swift
/// var builder = EffectBuilder<Child.Action, Int>(
///   environment: environment, embed: { .step($0) }, shift: { $0.shifted(by: $1, lastRule: 3) }, dismiss: nil)
/// return builder.build(rule.effect)
/// ```
struct EffectBuilder<Action: Sendable, Target: Hashable & Sendable> {
  let environment: ProgramEnvironment
  let embed: @Sendable (Target) -> Action
  let shift: @Sendable (Action, Int) -> Action
  let dismiss: DismissEffect?
  private let reduction: Int
  private var runs = 0
  /// Whether something may cancel what is being built: a namespace (a child's), a `cancellable`, a `debounce` or a
  /// concatenation around it.
  private var isCancellable: Bool

  init(
    environment: ProgramEnvironment, embed: @escaping @Sendable (Target) -> Action,
    shift: @escaping @Sendable (Action, Int) -> Action, dismiss: DismissEffect?, isNamespaced: Bool
  ) {
    self.environment = environment
    self.embed = embed
    self.shift = shift
    self.dismiss = dismiss
    self.reduction = environment.currentReduction
    self.isCancellable = isNamespaced
  }

  mutating func build(_ spec: EffectSpec<Target>) -> Effect<Action> {
    switch spec {
    case .none:
      return .none
    case let .send(target):
      return .send(embed(target))
    case let .run(run):
      defer { runs += 1 }
      return build(run, id: RunID(reduction: reduction, index: runs))
    case let .merge(effects):
      var built: [Effect<Action>] = []
      for effect in effects { built.append(build(effect)) }
      return .merge(built)
    case let .concatenate(effects):
      let built = cancellably { builder in effects.map { builder.build($0) } }
      return .concatenate(built)
    case let .cancellable(id, cancelInFlight, effect):
      return cancellably { $0.build(effect) }
        .cancellable(id: GeneratedCancelID(number: id), cancelInFlight: cancelInFlight)
    case let .cancel(id):
      return .cancel(id: GeneratedCancelID(number: id))
    case let .debounce(id, milliseconds, effect):
      return cancellably { $0.build(effect) }
        .debounce(id: GeneratedCancelID(number: id), for: .milliseconds(milliseconds), clock: environment.clock)
    case let .map(amount, effect):
      let shift = self.shift
      return build(effect).map { shift($0, amount) }
    }
  }

  private mutating func cancellably<T>(_ body: (inout Self) -> T) -> T {
    let outer = isCancellable
    isCancellable = true
    defer { isCancellable = outer }
    return body(&self)
  }

  private func build(_ run: RunSpec<Target>, id: RunID) -> Effect<Action> {
    let steps = run.steps
    let embed = embed
    let recorder = environment.recorder
    let clock = environment.clock
    let dismiss = dismiss
    let live = environment.live
    if let live, !isCancellable { live.markUncancellable(id) }
    let operation: @Sendable (Send<Action>) async throws -> Void = { send in
      do {
        try await withTaskCancellationHandler {
          for step in steps {
            switch step {
            case let .send(target):
              if let live { live.send(from: id) { send(embed(target)) } } else { send(embed(target)) }
            case let .sleep(milliseconds): try await clock.sleep(for: .milliseconds(milliseconds))
            case .checkCancellation: try Task.checkCancellation()
            case .fail: throw GeneratedFailure()
            case .never:
              guard let live else { try await Task.never() }
              await live.waits.wait()
              throw CancellationError()
            case .stream:
              if let live { await live.waits.wait() } else { await waitForCancellationOnAStream() }
            case let .cancel(id): await Task.cancel(id: GeneratedCancelID(number: id))
            case .dismiss: await dismiss?()
            }
          }
        } onCancel: {
          live?.cancelled(id)
        }
        recorder.ended(id, Task.isCancelled ? .cancelled : .completed)
      } catch {
        recorder.ended(id, Task.isCancelled || error is CancellationError ? .cancelled : .threw)
        throw error
      }
    }
    guard let caught = run.caught else { return .run(operation: operation) }
    return .run(operation: operation) { _, send in
      if let live { live.send(from: id) { send(embed(caught)) } } else { send(embed(caught)) }
    }
  }
}

/// Iterates a stream that never yields, as an effect observing a long-living source does: the iteration ends when
/// the effect is cancelled. Under a `TestStore` the wait counts as waiting on the test.
private func waitForCancellationOnAStream() async {
  let (stream, continuation) = AsyncStream<Int>.makeStream()
  await TestRuntime.waitingOnTheTest {
    for await _ in stream {}
  }
  continuation.finish()
}

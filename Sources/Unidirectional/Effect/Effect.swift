/// Work a reducer asks the store to do after it has changed state: nothing, an action to feed back at once, or
/// asynchronous work that may feed back many actions.
///
/// Effects are values: they describe work, and the ``Store`` (or a `TestStore`) runs them.
///
/// ```swift
/// case .refreshTapped:
///   state.isLoading = true
///   return .run { send in
///     let items = try await api.fetchItems()
///     send(.itemsLoaded(items))
///   }
///   .cancellable(id: CancelID.refresh, cancelInFlight: true)
/// ```
public struct Effect<Action: Sendable>: Sendable {
  @usableFromInline
  indirect enum Node: Sendable {
    case none
    case send(Action)
    case run(Run)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(id: CancelID, cancelInFlight: Bool, Effect)
    case cancel(CancelID)
  }

  /// The asynchronous part of a `.run` effect.
  ///
  /// A class, not a struct: the store's generic code copies and destroys it several times on its way to a task,
  /// and copying a generic struct looks up its runtime type metadata each time (about 2,300 of the 29,900
  /// instructions of a `.run` round trip, callgrind `--profile run_effect_roundtrip`); a class reference is a retain.
  @usableFromInline
  final class Run: Sendable {
    let priority: TaskPriority?
    let operation: @Sendable (Send<Action>) async throws -> Void
    let handler: (@Sendable (any Error, Send<Action>) async -> Void)?
    /// The dependencies in effect where the effect was created; the operation runs with them.
    let dependencies: DependencyValues?
    /// The cancellation namespace of the reducer that created it (an `ifLet` child, a `forEach` element), for
    /// `Task.cancel(id:)` and `withTaskCancellation(id:)` called inside the operation.
    let namespace: CancelNamespace

    init(
      priority: TaskPriority?, operation: @escaping @Sendable (Send<Action>) async throws -> Void,
      handler: (@Sendable (any Error, Send<Action>) async -> Void)?, dependencies: DependencyValues?,
      namespace: CancelNamespace = CancelNamespace()
    ) {
      self.priority = priority
      self.operation = operation
      self.handler = handler
      self.dependencies = dependencies
      self.namespace = namespace
    }
  }

  @usableFromInline let node: Node

  @inlinable init(_ node: Node) { self.node = node }

  /// An effect that does nothing.
  @inlinable public static var none: Self { Self(.none) }

  /// Whether this effect does nothing (the store's fast path).
  @inlinable @inline(__always) var isNone: Bool {
    if case .none = node { return true }
    return false
  }

  /// Feeds `action` back into the store immediately, before any action from asynchronous work.
  ///
  /// Actions fed back this way are processed depth-first: the action and everything it sends synchronously are
  /// reduced before the store returns to actions queued by effects or other callers.
  public static func send(_ action: Action) -> Self { Self(.send(action)) }

  /// Runs asynchronous work that can feed any number of actions back through `send`.
  ///
  /// A thrown error that is not a cancellation is passed to `handler`, or reported as a runtime issue when there
  /// is no handler. Once the effect is cancelled, `send` delivers nothing.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the work.
  ///   - operation: The work. `send` feeds actions back into the store.
  ///   - handler: Called with an error the operation throws (cancellation excepted).
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil
  ) -> Self {
    Self(.run(Run(priority: priority, operation: operation, handler: handler, dependencies: .current)))
  }

  /// Runs all `effects` at the same time.
  public static func merge(_ effects: Self...) -> Self { merge(effects) }

  /// Runs all `effects` at the same time.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Self(.merge(effects))
    }
  }

  /// Runs `effects` one after another: each starts when the previous one, and every effect it started, has
  /// finished (not the effects of the actions it sent).
  ///
  /// The parts up to the first one that starts asynchronous work are taken at once, within the `send` (their
  /// `.send`s are reduced before it returns); the rest runs in one task of its own, where a `.run` part runs inside
  /// that task and any other part is started as an effect of its own. A `cancellable(id:)` part answers to its id
  /// alone; cancelling the whole concatenation cancels every part. A part never cancels the concatenation it is in:
  /// a `cancel(id:)` or a `cancelInFlight` inside it that names the concatenation's own id cancels the others
  /// running under that id, not the concatenation.
  ///
  /// ```swift
  /// return .concatenate(
  ///   .run { _ in try await clock.sleep(for: .seconds(1)) },
  ///   .send(.timerFired)
  /// )
  /// ```
  public static func concatenate(_ effects: Self...) -> Self { concatenate(effects) }

  /// Runs `effects` one after another: each starts when the previous one, and every effect it started, has
  /// finished (as the variadic `concatenate` says).
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Self(.concatenate(effects))
    }
  }

  /// Runs this effect and `other` at the same time.
  @inlinable public func merge(with other: Self) -> Self {
    if isNone { return other }
    if other.isNone { return self }
    return Self(.merge([self, other]))
  }

  /// Runs `other` after this effect has finished.
  public func concatenate(with other: Self) -> Self { .concatenate(self, other) }

  /// Transforms the actions this effect feeds back, e.g. to embed a child's actions in its parent's.
  public func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    rebuilt(send: transform, run: { $0.map(transform) }, id: { $0 })
  }
}

extension Effect.Run {
  /// The same work, feeding back `transform` of each action it sends.
  func map<NewAction: Sendable>(_ transform: @escaping @Sendable (Action) -> NewAction) -> Effect<NewAction>.Run {
    let operation = self.operation
    var mappedHandler: (@Sendable (any Error, Send<NewAction>) async -> Void)?
    if let handler {
      mappedHandler = { error, send in await handler(error, Send { send(transform($0)) }) }
    }
    return Effect<NewAction>.Run(
      priority: priority, operation: { send in try await operation(Send { send(transform($0)) }) },
      handler: mappedHandler, dependencies: dependencies, namespace: namespace)
  }
}

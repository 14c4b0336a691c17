extension Effect {
  /// This effect with each of its parts transformed, its shape kept: the one walk of an effect tree outside the
  /// store's interpreter. ``map(_:)``, the namespacing of cancellation ids and dismissal are each one call of it, so
  /// a new kind of effect is one case here and one in the interpreter.
  ///
  /// ```swift
  /// effect.rebuilt(send: transform, run: { $0.map(transform) }, id: { $0 })   // what `map` does
  /// ```
  func rebuilt<NewAction: Sendable>(
    send: (Action) -> NewAction,
    run: (Run) -> Effect<NewAction>.Run,
    id: (CancelID) -> CancelID
  ) -> Effect<NewAction> {
    switch node {
    case .none:
      return .none
    case let .send(action):
      return Effect<NewAction>(.send(send(action)))
    case let .run(operation):
      return Effect<NewAction>(.run(run(operation)))
    case let .merge(effects):
      return Effect<NewAction>(.merge(effects.map { $0.rebuilt(send: send, run: run, id: id) }))
    case let .concatenate(effects):
      return Effect<NewAction>(.concatenate(effects.map { $0.rebuilt(send: send, run: run, id: id) }))
    case let .cancellable(cancelID, cancelInFlight, effect):
      return Effect<NewAction>(
        .cancellable(
          id: id(cancelID), cancelInFlight: cancelInFlight, effect.rebuilt(send: send, run: run, id: id)))
    case let .cancel(cancelID):
      return Effect<NewAction>(.cancel(id(cancelID)))
    }
  }
}

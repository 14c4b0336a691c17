extension Reducer {
  /// Runs `destination` on the presented child of a ``PresentationState`` while it is presented, after this
  /// reducer for ``PresentationAction/dismiss`` and before it for the child's own actions.
  ///
  /// - The child's effects are cancelled when it goes away: its state set to nil (by any reducer, noticed at the
  ///   next action this reducer sees), ``PresentationAction/dismiss`` sent by the parent or by the child itself
  ///   (`@Dependency(\.dismiss)`), or the child replaced by a *different* child — one with another
  ///   `Identifiable.id` (make a destination enum `Identifiable` to tell its cases apart).
  /// - A child action while nothing is presented is a runtime issue and changes nothing.
  /// - An ``EphemeralState`` child (an alert, a dialog) is dismissed by the first action it sends.
  /// - The child reads `@Dependency(\.isPresented)` as true, and `@Dependency(\.dismiss)` dismisses it.
  ///
  /// ```swift
  /// Reduce { state, action in
  ///   switch action {
  ///   case .uploadTapped:
  ///     state.destination = .upload(ImageUploadFeature.State(mediaType: .archive))
  ///     return .none
  ///   case .destination:
  ///     return .none
  ///   }
  /// }
  /// .ifLet(\.$destination, action: Action.destinationCase) { Destination() }
  /// ```
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>> & Sendable,
    action toPresentationAction: CasePath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> PresentationReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    PresentationReducer(
      base: self, destination: destination(), toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction, fileID: fileID, line: line)
  }

  /// Presents an alert or a confirmation dialog (any ``EphemeralState``), which has no reducer of its own: its
  /// first action reaches this reducer as `.presented(action)`, then the state is set to nil.
  ///
  /// ```swift
  /// .ifLet(\.$alert, action: Action.alertCase)
  /// ```
  public func ifLet<DestinationState: EphemeralState, DestinationAction: Sendable>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>> & Sendable,
    action toPresentationAction: CasePath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    PresentationReducer(
      base: self, destination: EmptyReducer(), toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction, fileID: fileID, line: line)
  }
}

/// The reducer made by `ifLet(\.$destination, action:destination:)` over a ``PresentationState``.
public struct PresentationReducer<Base: Reducer, Destination: Reducer>: Reducer {
  let base: Base
  let destination: Destination
  let toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>> & Sendable
  let toPresentationAction: CasePath<Base.Action, PresentationAction<Destination.Action>>
  let fileID: StaticString
  let line: UInt
  private let identity = Identifier<Destination.State>()
  private let ephemeral = EphemeralCheck<Destination.State, Destination.Action>()

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let presentedID = state[keyPath: toPresentationState].presentedID
    let initialIdentity = currentIdentity(state)
    var destinationEffect = Effect<Base.Action>.none
    let baseEffect: Effect<Base.Action>

    switch (initialIdentity, toPresentationAction.extract(action)) {
    case (let identity?, .dismiss?):
      // The parent sees the child one last time; a parent that presented another child instead keeps it.
      baseEffect = base.reduce(into: &state, action: action)
      if currentIdentity(state) == identity {
        state[keyPath: toPresentationState].wrappedValue = nil
      }

    case (let identity?, let .presented(destinationAction)?):
      destinationEffect = reduceDestination(&state, action: destinationAction, identity: identity)
      let writes = state[keyPath: toPresentationState].writes
      baseEffect = base.reduce(into: &state, action: action)
      // An alert or dialog ends with its first action, unless the parent has just replaced it.
      if ephemeral.isEphemeral, state[keyPath: toPresentationState].writes == writes,
        let presented = state[keyPath: toPresentationState].wrappedValue,
        ephemeral.isDismissed(presented, by: destinationAction)
      {
        state[keyPath: toPresentationState].wrappedValue = nil
      }

    case (nil, _?):
      reportIssue(
        """
        An "ifLet" at \(fileID):\(line) received a presentation action when destination state was absent: \
        \(describe(action)).

        The parent set the destination state to nil before this reducer ran (this reducer must run before any \
        reducer that dismisses the destination), or the action was sent while nothing was presented (send \
        actions for the destination only while it is presented, or from its own effects).
        """, fileID: fileID, line: line)
      baseEffect = base.reduce(into: &state, action: action)

    case (_, nil):
      baseEffect = base.reduce(into: &state, action: action)
    }

    let finalIdentity = currentIdentity(state)
    guard finalIdentity != presentedID else { return destinationEffect.merge(with: baseEffect) }
    // Dismissed, or replaced by a different child: the child presented before is gone with its effects.
    state[keyPath: toPresentationState].presentedID = finalIdentity
    let dismissal = presentedID.map { Effect<Base.Action>.cancelScope(namespace($0)) } ?? .none
    return .merge(destinationEffect, baseEffect, dismissal)
  }

  private func currentIdentity(_ state: Base.State) -> PresentationIdentity? {
    state[keyPath: toPresentationState].wrappedValue.map(identity.callAsFunction)
  }

  private func namespace(_ identity: PresentationIdentity) -> NavigationNamespace {
    NavigationNamespace(location: toPresentationState as AnyKeyPath, identity: identity)
  }

  /// Runs the destination reducer on the presented child, in place, presented: `dismiss` sends `.dismiss`.
  private func reduceDestination(
    _ state: inout Base.State, action: Destination.Action, identity: PresentationIdentity
  ) -> Effect<Base.Action> {
    let embed = toPresentationAction.embed
    let writes = state[keyPath: toPresentationState].writes
    defer { state[keyPath: toPresentationState].writes = writes }
    return mutate(&state[keyPath: toPresentationState].wrappedValue) {
      destination.dependency(\.dismiss, DismissEffect(kind: .presentation)).reduce(into: &$0, action: action)
    }
    .map { embed(.presented($0)) }
    .dismissible { send in send(embed(.dismiss)) }
    .scoped(by: namespace(identity))
  }
}

/// Runs `body` on the wrapped value of `optional` in place, without a copy-on-write copy of it.
@inlinable
func mutate<Value, Action>(
  _ optional: inout Value?, _ body: (inout Value) -> Effect<Action>
) -> Effect<Action> {
  guard var value = optional else { return .none }
  optional = nil
  defer { optional = value }
  return body(&value)
}

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
  @inlinable
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
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
  @inlinable
  public func ifLet<DestinationState: EphemeralState, DestinationAction: Sendable>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
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
///
/// Inlinable, so that it is specialized for the app's types (see ``IfLetReducer``).
public struct PresentationReducer<Base: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let destination: Destination
  @usableFromInline let toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>>
  @usableFromInline let toPresentationAction: CasePath<Base.Action, PresentationAction<Destination.Action>>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let identity = Identifier<Destination.State>()
  @usableFromInline let ephemeral = EphemeralCheck<Destination.State, Destination.Action>()

  @inlinable
  init(
    base: Base, destination: Destination,
    toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>>,
    toPresentationAction: CasePath<Base.Action, PresentationAction<Destination.Action>>, fileID: StaticString,
    line: UInt
  ) {
    self.base = base
    self.destination = destination
    self.toPresentationState = toPresentationState
    self.toPresentationAction = toPresentationAction
    self.fileID = fileID
    self.line = line
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    // Each key path access costs ~600-1,300 instructions: the presentation is read once here.
    let (presentedID, initialIdentity, writes) = { presentation in
      (presentation.presentedID, presentation.wrappedValue.map(identity.callAsFunction), presentation.writes)
    }(state[keyPath: toPresentationState])
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
      // The child's own changes do not count as writes (`reduceDestination` puts the count back).
      destinationEffect = reduceDestination(&state, action: destinationAction, identity: identity)
      baseEffect = base.reduce(into: &state, action: action)
      // An alert or dialog ends with its first action, unless the parent has just replaced it.
      if ephemeral.isEphemeral, case let presentation = state[keyPath: toPresentationState],
        presentation.writes == writes, let presented = presentation.wrappedValue,
        ephemeral.isDismissed(presented, by: destinationAction)
      {
        state[keyPath: toPresentationState].wrappedValue = nil
      }

    case (nil, _?):
      reportActionWithoutDestination(action)
      baseEffect = base.reduce(into: &state, action: action)

    case (_, nil):
      baseEffect = base.reduce(into: &state, action: action)
    }

    let finalIdentity = currentIdentity(state)
    guard finalIdentity != presentedID else { return destinationEffect.merge(with: baseEffect) }
    // Dismissed, or replaced by a different child: the child presented before is gone with its effects.
    state[keyPath: toPresentationState].presentedID = finalIdentity
    let dismissal = presentedID.map { Effect<Base.Action>.cancelNamespace(namespace($0)) } ?? .none
    return .merge(destinationEffect, baseEffect, dismissal)
  }

  @usableFromInline
  func reportActionWithoutDestination(_ action: Base.Action) {
    reportIssue(
      """
      An "ifLet" at \(fileID):\(line) received a presentation action when destination state was absent: \
      \(describe(action)).

      The parent set the destination state to nil before this reducer ran (this reducer must run before any \
      reducer that dismisses the destination), or the action was sent while nothing was presented (send \
      actions for the destination only while it is presented, or from its own effects).
      """, fileID: fileID, line: line)
  }

  @inlinable
  func currentIdentity(_ state: Base.State) -> PresentationIdentity? {
    state[keyPath: toPresentationState].wrappedValue.map(identity.callAsFunction)
  }

  @usableFromInline
  func namespace(_ identity: PresentationIdentity) -> AnyHashable {
    NavigationNamespace(location: toPresentationState as AnyKeyPath, identity: identity)
  }

  /// Runs the destination reducer on the presented child, in place, presented: `dismiss` sends `.dismiss`.
  @inlinable
  func reduceDestination(
    _ state: inout Base.State, action: Destination.Action, identity: PresentationIdentity
  ) -> Effect<Base.Action> {
    let embed = toPresentationAction.embed
    // One access to the presentation for the change and the count put back.
    let effect = modify(&state[keyPath: toPresentationState]) { presentation -> Effect<Destination.Action> in
      let writes = presentation.writes
      defer { presentation.writes = writes }
      return mutate(&presentation.wrappedValue) {
        PresentedReducer(base: destination).reduce(into: &$0, action: action)
      }
    }
    return effect.map { embed(.presented($0)) }
      .dismissible { send in send(embed(.dismiss)) }
      .namespaced(by: namespace(identity))
  }
}

/// Runs `body` on `value` in place: one access to a value reached through a key path, however many changes.
@inlinable
func modify<Value, Result>(_ value: inout Value, _ body: (inout Value) -> Result) -> Result {
  body(&value)
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

extension Reducer {
  /// Runs `child` on an optional part of the state while it is non-nil, before this reducer for the child's
  /// actions.
  ///
  /// When the child goes away — set to nil, or replaced by a child with another `Identifiable.id` — every effect
  /// it started is cancelled. A child action that arrives while the child state is nil is reported as a runtime
  /// issue. An ``EphemeralState`` child (an alert) is set to nil after its first action. For sheets and other
  /// presentations with a `.dismiss` action and `@Dependency(\.dismiss)`, use ``PresentationState``.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.preview, action: Action.previewCase) { ModelPreviewFeature() }
  /// ```
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    IfLetReducer(
      parent: self, child: child(), toChildState: toChildState, toChildAction: toChildAction,
      fileID: fileID, line: line)
  }
}

extension Reducer {
  /// Shows an alert or a confirmation dialog (any ``EphemeralState``) kept in a plain optional, as TCA's
  /// `.ifLet(\.alert, action: \.alert)` does: it has no reducer of its own; its first action reaches this reducer,
  /// then the state is set to nil.
  ///
  /// ```swift
  /// struct State: Equatable { var alert: AlertState<Action.Alert>? }
  /// enum Action: Equatable { case deleteTapped, alert(Alert); enum Alert: Equatable { case confirm } }
  /// Reduce { state, action in … }
  ///   .ifLet(\.alert, action: Action.alert)
  /// ```
  @inlinable
  public func ifLet<ChildState: EphemeralState, ChildAction: Sendable>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> IfLetReducer<Self, EmptyReducer<ChildState, ChildAction>> {
    ifLet(toChildState, action: toChildAction, then: { EmptyReducer() }, fileID: fileID, line: line)
  }
}

/// The reducer made by ``Reducer/ifLet(_:action:then:fileID:line:)-(_,CasePath<Self.Action,ChildAction>,_,_,_)``.
///
/// Inlinable, so that it is specialized for the app's own state and action types: unspecialized, a child action
/// spent most of its ~11,000 instructions looking up the runtime metadata of `Child.State?` and its key paths.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?>
  @usableFromInline let toChildAction: CasePath<Parent.Action, Child.Action>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let identity = Identifier<Child.State>()
  @usableFromInline let ephemeral = EphemeralCheck<Child.State, Child.Action>()

  @inlinable
  init(
    parent: Parent, child: Child, toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: CasePath<Parent.Action, Child.Action>, fileID: StaticString, line: UInt
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.fileID = fileID
    self.line = line
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let identityBefore = state[keyPath: toChildState].map(identity.callAsFunction)
    var childEffect = Effect<Parent.Action>.none
    let childAction = toChildAction.extract(action)
    if let childAction {
      if let identityBefore {
        childEffect = mutate(&state[keyPath: toChildState]) { child.reduce(into: &$0, action: childAction) }
          .map(toChildAction.embed)
          .namespaced(by: namespace(identityBefore))
      } else {
        reportChildActionWithoutState(action)
      }
    }
    // Read only for a child that may be ephemeral: each key path read costs ~1,000 instructions.
    let identityBeforeParent =
      childAction != nil && ephemeral.isEphemeral ? state[keyPath: toChildState].map(identity.callAsFunction) : nil
    let parentEffect = parent.reduce(into: &state, action: action)
    if let childAction, identityBeforeParent != nil,
      let presented = state[keyPath: toChildState], identity(presented) == identityBeforeParent,
      ephemeral.isDismissed(presented, by: childAction)
    {
      state[keyPath: toChildState] = nil
    }
    guard let identityBefore else { return childEffect.merge(with: parentEffect) }
    let identityAfter = state[keyPath: toChildState].map(identity.callAsFunction)
    if identityAfter == identityBefore { return childEffect.merge(with: parentEffect) }
    return .merge(childEffect, parentEffect, .cancelNamespace(namespace(identityBefore)))
  }

  @usableFromInline
  func reportChildActionWithoutState(_ action: Parent.Action) {
    reportIssue(
      """
      An "ifLet" at \(fileID):\(line) received the child action \(describe(action)) while its child state \
      was nil. Make sure the child's effects are cancelled when the child is dismissed, and that the child \
      state is set before sending it actions.
      """, fileID: fileID, line: line)
  }

  @usableFromInline
  func namespace(_ identity: PresentationIdentity) -> AnyHashable {
    NavigationNamespace(location: toChildState as AnyKeyPath, identity: identity)
  }
}

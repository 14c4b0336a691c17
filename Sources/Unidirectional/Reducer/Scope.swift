/// Runs a child reducer on a part of the parent's state, for the child's actions embedded in the parent's.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.upload, action: Action.uploadCase) {
///     ImageUploadFeature()
///   }
///   Reduce { state, action in … }   // the parent sees the child's actions after the child
/// }
/// ```
public struct Scope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>
  @usableFromInline let toChildAction: CasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Scopes `child` to `state` and to the actions matched by `action`.
  @inlinable
  public init(
    state toChildState: WritableKeyPath<ParentState, Child.State>,
    action toChildAction: CasePath<ParentAction, Child.Action>,
    @ReducerBuilder<Child.State, Child.Action> child: () -> Child
  ) {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    let effect = child.reduce(into: &state[keyPath: toChildState], action: childAction)
    if effect.isNone { return .none }
    return effect.map(toChildAction.embed)
  }
}

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
  @inlinable @inline(__always)
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child()
  }

  @inlinable @inline(__always)
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    let effect = child.reduce(into: &state[keyPath: toChildState], action: childAction)
    if effect.isNone { return .none }
    return effect.map(toChildAction.embed)
  }
}

extension Reducer {
  /// Runs `child` on an optional part of the state while it is non-nil, after this reducer for the child's actions.
  ///
  /// When the parent sets the child state to nil, every effect the child started is cancelled. A child action that
  /// arrives while the child state is nil is reported as a runtime issue.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.preview, action: Action.previewCase) { ModelPreviewFeature() }
  /// ```
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
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

/// The reducer made by ``Reducer/ifLet(_:action:then:fileID:line:)``.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: WritableKeyPath<Parent.State, Child.State?> & Sendable
  let toChildAction: CasePath<Parent.Action, Child.Action>
  let fileID: StaticString
  let line: UInt

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let namespace = AnyHashable(toChildState)
    var childEffect = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(action) {
      if state[keyPath: toChildState] != nil {
        // Force-unwrap-free in-place mutation of the optional child.
        childEffect = mutate(&state[keyPath: toChildState]) { child.reduce(into: &$0, action: childAction) }
          .map(toChildAction.embed)
          .scoped(by: namespace)
      } else {
        reportIssue(
          """
          An "ifLet" at \(fileID):\(line) received the child action \(describe(action)) while its child state \
          was nil. Make sure the child's effects are cancelled when the child is dismissed, and that the child \
          state is set before sending it actions.
          """, fileID: fileID, line: line)
      }
    }
    let wasPresent = state[keyPath: toChildState] != nil
    let parentEffect = parent.reduce(into: &state, action: action)
    let dismissed = wasPresent && state[keyPath: toChildState] == nil
    return .merge(childEffect, parentEffect, dismissed ? .cancelScope(namespace) : .none)
  }

  private func mutate(
    _ childState: inout Child.State?,
    _ body: (inout Child.State) -> Effect<Child.Action>
  ) -> Effect<Child.Action> {
    guard var value = childState else { return .none }
    childState = nil  // avoid a copy-on-write of the child while it is mutated
    defer { childState = value }
    return body(&value)
  }
}

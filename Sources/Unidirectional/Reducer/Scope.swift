/// Runs a child reducer on a part of the parent's state — a property, or one case of an enum — for the child's
/// actions embedded in the parent's.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.upload, action: Action.uploadCase) {
///     ImageUploadFeature()
///   }
///   Reduce { state, action in … }   // the parent sees the child's actions after the child
/// }
/// ```
///
/// Scoped to an enum case (a destination or a stack element enum), a child action that arrives while the state is
/// in another case is a runtime issue and changes nothing:
///
/// ```swift
/// Scope(state: State.uploadCase, action: Action.uploadCase) { ImageUploadFeature() }
/// ```
///
/// Such a scope does not cancel the child's effects when the state leaves the case: the presentation or stack
/// reducer around it does, or use ``Reducer/ifCaseLet(_:action:then:fileID:line:)-(CasePath<Self.State,CaseState>,_,_,_,_)``.
public struct Scope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  /// A scope to an enum case: the case path and where the scope was written (for the runtime issue).
  @usableFromInline
  final class CaseScope: Sendable {
    let toChildState: CasePath<ParentState, Child.State>
    let fileID: StaticString
    let line: UInt

    @usableFromInline
    init(_ toChildState: CasePath<ParentState, Child.State>, fileID: StaticString, line: UInt) {
      self.toChildState = toChildState
      self.fileID = fileID
      self.line = line
    }
  }

  // Two optionals rather than one enum: with the key path a plain stored property, the optimizer still turns
  // `state[keyPath: \.child]` into a field access once `reduce` is inlined (an enum payload hid it: 6.6× the
  // instructions of a three-deep scoped send).
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>?
  @usableFromInline let toChildCase: CaseScope?
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
    self.toChildCase = nil
    self.toChildAction = toChildAction
    self.child = child()
  }

  /// Scopes `child` to the enum case `state` of the parent's state and to the actions matched by `action`.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: CasePath<ParentState, ChildState>,
    action toChildAction: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = nil
    self.toChildCase = CaseScope(toChildState, fileID: fileID, line: line)
    self.toChildAction = toChildAction
    self.child = child()
  }

  @inlinable @inline(__always)
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    let effect: Effect<Child.Action>
    if let toChildState {
      effect = child.reduce(into: &state[keyPath: toChildState], action: childAction)
    } else if let toChildCase {
      effect = reduceCase(&state, action: childAction, toChildCase)
    } else {
      return .none
    }
    if effect.isNone { return .none }
    return effect.map(toChildAction.embed)
  }

  @usableFromInline
  func reduceCase(_ state: inout ParentState, action: Child.Action, _ scope: CaseScope) -> Effect<Child.Action> {
    let (toChildState, fileID, line) = (scope.toChildState, scope.fileID, scope.line)
    guard var childState = toChildState.extract(state) else {
      reportIssue(
        """
        A "Scope" at \(fileID):\(line) received a child action when child state was set to a different case: \
        \(describe(action)) while the state is \(describe(state)).

        A parent reducer set the state to another case before this reducer ran (scope the child before the \
        parent, or use ifCaseLet), an effect of the child kept running after the state left its case (cancel \
        it), or the action was sent while the state was in another case.
        """, fileID: fileID, line: line)
      return .none
    }
    let effect = child.reduce(into: &childState, action: action)
    state = toChildState.embed(childState)
    return effect
  }
}

// `Scope` given a case's constructor where TCA takes a case key path, and with TCA's unlabelled key path:
// `Scope(state: \.child, action: Action.child)`, `Scope(\.child, action: Action.child)`,
// `Scope(state: State.loggedIn, action: Action.loggedIn)`. The case paths are made each time `body` runs (see
// `Reducer+CaseConstructors.swift`).

extension Scope {
  /// Scopes `child` to `state` and to the actions of the case `action` constructs.
  ///
  /// ```swift
  /// Scope(state: \.child, action: Action.child) { Child() }
  /// ```
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: @escaping @Sendable (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: CasePath(toChildAction, fileID: fileID, line: line), child: child)
  }

  /// Scopes `child` to the enum case of the state `state` constructs and to the actions of the case `action`
  /// constructs.
  ///
  /// ```swift
  /// Scope(state: State.loggedIn, action: Action.loggedIn) { LoggedIn() }
  /// ```
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: @escaping @Sendable (ChildState) -> ParentState,
    action toChildAction: @escaping @Sendable (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      state: CasePath(toChildState, fileID: fileID, line: line),
      action: CasePath(toChildAction, fileID: fileID, line: line), child: child, fileID: fileID, line: line)
  }

  /// `Scope(state:action:child:)` with the key path unlabelled.
  ///
  /// ```swift
  /// Scope(\.child, action: Action.childCase) { Child() }
  /// ```
  @inlinable
  public init<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: toChildAction, child: child)
  }

  /// `Scope(state:action:child:)` with the key path unlabelled, given the action case's constructor.
  ///
  /// ```swift
  /// Scope(\.child, action: Action.child) { Child() }
  /// ```
  @inlinable
  public init<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: @escaping @Sendable (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: CasePath(toChildAction, fileID: fileID, line: line), child: child)
  }
}

extension Reducer {
  /// Runs `child` on one case of an enum state while the state is in that case, before this reducer for the
  /// child's actions.
  ///
  /// When the state leaves the case — or the case's value is replaced by one with another `Identifiable.id` —
  /// every effect the child started is cancelled. A child action that arrives while the state is in another case is
  /// a runtime issue and changes nothing.
  ///
  /// ```swift
  /// enum State: Equatable {
  ///   case signedIn(Account.State)
  ///   case signedOut(SignIn.State)
  ///   static let signedInCase = CasePath(State.signedIn) { if case let .signedIn(s) = $0 { s } else { nil } }
  /// }
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in … }
  ///     .ifCaseLet(State.signedInCase, action: Action.signedInCase) { Account() }
  /// }
  /// ```
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: CasePath<State, CaseState>,
    action toCaseAction: CasePath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> IfCaseLetReducer<Self, Case> where CaseState == Case.State, CaseAction == Case.Action {
    IfCaseLetReducer(
      parent: self, child: `case`(), toChildState: toCaseState, toChildAction: toCaseAction, fileID: fileID,
      line: line)
  }
}

/// The reducer made by ``Reducer/ifCaseLet(_:action:then:fileID:line:)-(CasePath<Self.State,CaseState>,_,_,_,_)``.
///
/// Inlinable, so that it is specialized for the app's types (see ``IfLetReducer``).
public struct IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: CasePath<Parent.State, Child.State>
  @usableFromInline let toChildAction: CasePath<Parent.Action, Child.Action>
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let rootIdentity = Identifier<Parent.State>()
  @usableFromInline let childIdentity = Identifier<Child.State>()

  @inlinable
  init(
    parent: Parent, child: Child, toChildState: CasePath<Parent.State, Child.State>,
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
    var childEffect = Effect<Parent.Action>.none
    let identityBefore = identity(of: state)
    if let childAction = toChildAction.extract(action) {
      if let identityBefore, var childState = toChildState.extract(state) {
        let effect = child.reduce(into: &childState, action: childAction)
        state = toChildState.embed(childState)
        childEffect = effect.map(toChildAction.embed).namespaced(by: namespace(identityBefore))
      } else {
        reportActionInAnotherCase(action, state: state)
      }
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    guard let identityBefore, identity(of: state) != identityBefore else {
      return childEffect.merge(with: parentEffect)
    }
    return .merge(childEffect, parentEffect, .cancelNamespace(namespace(identityBefore)))
  }

  @usableFromInline
  func reportActionInAnotherCase(_ action: Parent.Action, state: Parent.State) {
    reportIssue(
      """
      An "ifCaseLet" at \(fileID):\(line) received a child action when child state was set to a different \
      case: \(describe(action)) while the state is \(describe(state)).

      A parent reducer set the state to another case before this reducer ran (this reducer must run first), \
      an effect of the child kept running after the state left its case (cancel it), or the action was sent \
      while the state was in another case.
      """, fileID: fileID, line: line)
  }

  /// The identity of the child while the state is in the case: the root's id, or else the child's.
  @inlinable
  func identity(of state: Parent.State) -> PresentationIdentity? {
    guard let childState = toChildState.extract(state) else { return nil }
    return PresentationIdentity(id: rootIdentity.id(of: state) ?? childIdentity.id(of: childState))
  }

  @usableFromInline
  func namespace(_ identity: PresentationIdentity) -> AnyHashable {
    NavigationNamespace(
      location: CaseLocation(root: ObjectIdentifier(Parent.State.self), value: ObjectIdentifier(Child.State.self)),
      identity: identity)
  }
}

/// Where an `ifCaseLet` child lives: the enum and the type of the case's value.
private struct CaseLocation: Hashable, Sendable {
  let root: ObjectIdentifier
  let value: ObjectIdentifier
}

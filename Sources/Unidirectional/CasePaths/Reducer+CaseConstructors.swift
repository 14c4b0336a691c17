// The reducer operators given a case's constructor where TCA takes a case key path: `.ifLet(\.child, action:
// Action.child)` for TCA's `.ifLet(\.child, action: \.child)`. Each makes its case path with
// `CasePath(_:fileID:line:)` every time `body` runs: about 70 ns per operator and action more than a hand-written
// path (`scoped_send_3_derived_inline` in the Performance article); a `static let childCase =
// CasePath(Action.child)` passed instead is made once (about 23 ns).

extension Reducer {
  /// ``ifLet(_:action:then:fileID:line:)-(_,CasePath<Self.Action,ChildAction>,_,_,_)`` given the child case's constructor.
  ///
  /// ```swift
  /// Reduce { … }.ifLet(\.child, action: Action.child) { Child() }
  /// ```
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: @escaping @Sendable (ChildAction) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    ifLet(
      toChildState, action: CasePath(toChildAction, fileID: fileID, line: line), then: child, fileID: fileID,
      line: line)
  }

  /// An alert or a dialog in a plain optional, given its action case's constructor (TCA's
  /// `.ifLet(\.alert, action: \.alert)`).
  ///
  /// ```swift
  /// Reduce { … }.ifLet(\.alert, action: Action.alert)
  /// ```
  @inlinable
  public func ifLet<ChildState: EphemeralState, ChildAction: Sendable>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: @escaping @Sendable (ChildAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> IfLetReducer<Self, EmptyReducer<ChildState, ChildAction>> {
    ifLet(toChildState, action: CasePath(toChildAction, fileID: fileID, line: line), fileID: fileID, line: line)
  }

  /// A presented destination given its action case's constructor (TCA's
  /// `.ifLet(\.$destination, action: \.destination)`).
  ///
  /// ```swift
  /// Reduce { … }.ifLet(\.$destination, action: Action.destination) { Destination() }
  /// ```
  @inlinable
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: @escaping @Sendable (PresentationAction<DestinationAction>) -> Action,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> PresentationReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    ifLet(
      toPresentationState, action: CasePath(toPresentationAction, fileID: fileID, line: line),
      destination: destination, fileID: fileID, line: line)
  }

  /// A presented alert or dialog given its action case's constructor (TCA's `.ifLet(\.$alert, action: \.alert)`).
  ///
  /// ```swift
  /// Reduce { … }.ifLet(\.$alert, action: Action.alert)
  /// ```
  @inlinable
  public func ifLet<DestinationState: EphemeralState, DestinationAction: Sendable>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: @escaping @Sendable (PresentationAction<DestinationAction>) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    ifLet(
      toPresentationState, action: CasePath(toPresentationAction, fileID: fileID, line: line), fileID: fileID,
      line: line)
  }

  /// ``forEach(_:action:element:fileID:line:)`` given the constructor of TCA's
  /// `case rows(IdentifiedActionOf<Row>)`.
  ///
  /// ```swift
  /// Reduce { … }.forEach(\.rows, action: Action.rows) { Row() }
  /// ```
  @inlinable
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: @escaping @Sendable (IdentifiedAction<ID, ElementAction>) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ForEachReducer<Self, ID, Element> where ElementState == Element.State, ElementAction == Element.Action {
    forEach(
      toElements, action: CasePath(toElementAction, fileID: fileID, line: line), element: element, fileID: fileID,
      line: line)
  }

  /// A navigation stack given its action case's constructor (TCA's `.forEach(\.path, action: \.path)`).
  ///
  /// ```swift
  /// Reduce { … }.forEach(\.path, action: Action.path) { Path() }
  /// ```
  @inlinable
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: @escaping @Sendable (StackAction<DestinationState, DestinationAction>) -> Action,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> StackReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    forEach(
      toStackState, action: CasePath(toStackAction, fileID: fileID, line: line), destination: destination,
      fileID: fileID, line: line)
  }

  /// ``ifCaseLet(_:action:then:fileID:line:)-(CasePath<Self.State,CaseState>,_,_,_,_)`` given the constructors of the state's case and of the action's
  /// (TCA's `.ifCaseLet(\.loggedIn, action: \.loggedIn)`).
  ///
  /// ```swift
  /// Reduce { … }.ifCaseLet(State.loggedIn, action: Action.loggedIn) { LoggedIn() }
  /// ```
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: @escaping @Sendable (CaseState) -> State,
    action toCaseAction: @escaping @Sendable (CaseAction) -> Action,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> IfCaseLetReducer<Self, Case> where CaseState == Case.State, CaseAction == Case.Action {
    ifCaseLet(
      CasePath(toCaseState, fileID: fileID, line: line), action: CasePath(toCaseAction, fileID: fileID, line: line),
      then: `case`, fileID: fileID, line: line)
  }
}

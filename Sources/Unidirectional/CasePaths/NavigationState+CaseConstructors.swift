// A presented child's or a stack element's case, given the case's constructor: TCA's
// `state.$destination[case: \.edit]` and `state.path[id: 0, case: \.detail]`.

extension PresentationState {
  /// The presented child's value in the case `embed` constructs (the subscript given a ``CasePath``).
  ///
  /// ```swift
  /// state.$destination[case: Destination.State.edit]?.title = "Kite"
  /// ```
  public subscript<Case>(
    case embed: @escaping @Sendable (Case) -> State, fileID fileID: StaticString = #fileID, line line: UInt = #line
  ) -> Case? {
    get { self[case: CasePath(embed, fileID: fileID, line: line), fileID: fileID, line: line] }
    set { self[case: CasePath(embed, fileID: fileID, line: line), fileID: fileID, line: line] = newValue }
  }
}

extension StackState {
  /// The value of the element with `id` in the case `embed` constructs (the subscript given a
  /// ``CasePath``).
  ///
  /// ```swift
  /// state.path[id: 0, case: Path.State.detail]?.title = "Kite"
  /// ```
  public subscript<Case>(
    id id: StackElementID, case embed: @escaping @Sendable (Case) -> Element, fileID fileID: StaticString = #fileID,
    line line: UInt = #line
  ) -> Case? {
    get { self[id: id, case: CasePath(embed, fileID: fileID, line: line), fileID: fileID, line: line] }
    set { self[id: id, case: CasePath(embed, fileID: fileID, line: line), fileID: fileID, line: line] = newValue }
  }
}

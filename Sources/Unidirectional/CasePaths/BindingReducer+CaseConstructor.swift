// `BindingReducer` given the view action case's constructor: TCA's `BindingReducer(action: \.view)`.

extension BindingReducer {
  /// A reducer that applies the binding actions of the view actions of the case `embed` constructs: TCA's
  /// `BindingReducer(action: \.view)`.
  ///
  /// ```swift
  /// BindingReducer(action: Action.view)
  /// ```
  @inlinable
  public init(
    action embed: @escaping @Sendable (ViewAction) -> Action, fileID: StaticString = #fileID, line: UInt = #line
  ) {
    self.init(action: CasePath(embed, fileID: fileID, line: line))
  }
}

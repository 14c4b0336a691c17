// A case of a case of an action, as one expression: TCA's `\.child.response` is
// `CasePath(Action.child, Child.Action.response)`, its `\.destination.edit` (through `.presented`)
// `CasePath(Action.destination, Destination.Action.edit)`, and a longer chain appends.

extension CasePath {
  /// The case path to `path`'s case inside this one's: embeds through both, extracts through both.
  ///
  /// ```swift
  /// let response = CasePath(Action.child).appending(path: Child.Action.responseCase)
  /// ```
  public func appending<AppendedValue>(
    path: CasePath<Value, AppendedValue>
  ) -> CasePath<Root, AppendedValue> {
    CasePath<Root, AppendedValue>(
      { self.embed(path.embed($0)) }, extract: { self.extract($0).flatMap(path.extract) })
  }

  /// The case path to the case `embed` constructs inside this one's (its extraction derived from it, as
  /// `CasePath(_:)` does).
  ///
  /// ```swift
  /// let saved = CasePath(Action.child).appending(Child.Action.delegate).appending(Child.Delegate.saved)
  /// ```
  @inlinable
  public func appending<AppendedValue>(
    _ embed: @escaping @Sendable (AppendedValue) -> Value,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> CasePath<Root, AppendedValue> {
    appending(path: CasePath<Value, AppendedValue>(embed, fileID: fileID, line: line))
  }

  /// The case path to the case `embed` constructs inside the presented child of this case's
  /// ``PresentationAction``: TCA's `\.destination.edit`, which goes through `.presented`.
  ///
  /// ```swift
  /// let edit = CasePath(Action.destination).appending(Destination.Action.edit)
  /// // the same as CasePath(Action.destination, PresentationAction.presented, Destination.Action.edit)
  /// ```
  @inlinable
  public func appending<PresentedAction, AppendedValue>(
    _ embed: @escaping @Sendable (AppendedValue) -> PresentedAction,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> CasePath<Root, AppendedValue> where Value == PresentationAction<PresentedAction> {
    appending(PresentationAction<PresentedAction>.presented, fileID: fileID, line: line)
      .appending(embed, fileID: fileID, line: line)
  }

  /// The case of a case: `CasePath(Action.child, Child.Action.response)` for TCA's `\.child.response`.
  ///
  /// ```swift
  /// await store.receive(CasePath(Action.child, Child.Action.response)) { $0.child.text = "Hi" }
  /// ```
  @inlinable
  public init<Middle>(
    _ first: @escaping @Sendable (Middle) -> Root,
    _ second: @escaping @Sendable (Value) -> Middle,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self = CasePath<Root, Middle>(first, fileID: fileID, line: line).appending(second, fileID: fileID, line: line)
  }

  /// The case of the presented child of a case: `CasePath(Action.destination, Destination.Action.edit)` for TCA's
  /// `\.destination.edit` (through `.presented`).
  ///
  /// ```swift
  /// await store.send(CasePath(Action.destination, Destination.Action.edit).binding(\.title), "Milk")
  /// ```
  @inlinable
  public init<PresentedAction>(
    _ first: @escaping @Sendable (PresentationAction<PresentedAction>) -> Root,
    _ second: @escaping @Sendable (Value) -> PresentedAction,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self = CasePath<Root, PresentationAction<PresentedAction>>(first, fileID: fileID, line: line)
      .appending(second, fileID: fileID, line: line)
  }

  /// Three cases deep: `CasePath(Action.child, Child.Action.delegate, Child.Delegate.saved)` for TCA's
  /// `\.child.delegate.saved`.
  ///
  /// ```swift
  /// await store.receive(CasePath(Action.child, Child.Action.delegate, Child.Delegate.saved))
  /// ```
  @inlinable
  public init<First, Second>(
    _ first: @escaping @Sendable (First) -> Root,
    _ second: @escaping @Sendable (Second) -> First,
    _ third: @escaping @Sendable (Value) -> Second,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self = CasePath<Root, Second>(first, second, fileID: fileID, line: line)
      .appending(third, fileID: fileID, line: line)
  }

  /// Three cases deep through a presented child: `CasePath(Action.destination, Destination.Action.edit,
  /// Edit.Action.response)` for TCA's `\.destination.edit.response` (through `.presented`).
  ///
  /// ```swift
  /// await store.receive(CasePath(Action.destination, Destination.Action.edit, Edit.Action.response))
  /// ```
  @inlinable
  public init<PresentedAction, Second>(
    _ first: @escaping @Sendable (PresentationAction<PresentedAction>) -> Root,
    _ second: @escaping @Sendable (Second) -> PresentedAction,
    _ third: @escaping @Sendable (Value) -> Second,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self = CasePath<Root, Second>(first, second, fileID: fileID, line: line)
      .appending(third, fileID: fileID, line: line)
  }
}

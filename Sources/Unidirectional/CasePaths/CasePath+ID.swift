// TCA's `\.rows[id: 1]` and `\.path[id: 0]`: the actions of one element of a collection or a stack, as a case
// path, which composes further (`CasePath(Action.rows)[id: 1].appending(Row.Action.saved)`).

extension CasePath {
  /// The actions of the element with `id`, from a case path to an ``IdentifiedAction``.
  ///
  /// ```swift
  /// await store.send(CasePath(Action.todos)[id: id].binding(\.description), "Milk")
  /// ```
  public subscript<ID: Hashable & Sendable, ElementAction>(
    id id: ID
  ) -> CasePath<Root, ElementAction> where Value == IdentifiedAction<ID, ElementAction> {
    CasePath<Root, ElementAction>(
      { self.embed(.element(id: id, action: $0)) },
      extract: {
        guard case let .element(elementID, action)? = self.extract($0), elementID == id else { return nil }
        return action
      })
  }

  /// The actions of the element with `id`, from a case path to a `case row(id: ID, action: Row.Action)`.
  ///
  /// ```swift
  /// await store.receive(CasePath(Action.row)[id: 1].appending(Row.Action.saved))
  /// ```
  public subscript<ID: Hashable & Sendable, ElementAction>(
    id id: ID
  ) -> CasePath<Root, ElementAction> where Value == (ID, ElementAction) {
    CasePath<Root, ElementAction>(
      { self.embed((id, $0)) },
      extract: {
        guard let (elementID, action) = self.extract($0), elementID == id else { return nil }
        return action
      })
  }

  /// The actions of the stack element with `id`, from a case path to a ``StackAction``.
  ///
  /// ```swift
  /// await store.receive(CasePath(Action.path)[id: 0].appending(Path.Action.detail))
  /// ```
  public subscript<State, ElementAction>(
    id id: StackElementID
  ) -> CasePath<Root, ElementAction> where Value == StackAction<State, ElementAction> {
    CasePath<Root, ElementAction>(
      { self.embed(.element(id: id, action: $0)) },
      extract: {
        guard case let .element(elementID, action)? = self.extract($0), elementID == id else { return nil }
        return action
      })
  }
}

/// An action for one element of an identified collection, by the element's id: TCA's `IdentifiedAction`, which a
/// parent holds in one case for all its rows.
///
/// ```swift
/// enum Action {
///   case rows(IdentifiedActionOf<Row>)
/// }
/// Reduce { … }.forEach(\.rows, action: Action.rows) { Row() }
/// store.send(.rows(.element(id: 1, action: .toggleTapped)))
/// await store.receive(CasePath(Action.rows)[id: 1].appending(Row.Action.saved))
/// ```
public enum IdentifiedAction<ID: Hashable, Action> {
  /// The action `action` for the element with `id`.
  case element(id: ID, action: Action)
}

/// The ``IdentifiedAction`` of a reducer over an `Identifiable` state: `IdentifiedActionOf<Row>` is
/// `IdentifiedAction<Row.State.ID, Row.Action>`.
public typealias IdentifiedActionOf<R: ReducerDomain> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where ID: Sendable, Action: Sendable {}
extension IdentifiedAction: Encodable where ID: Encodable, Action: Encodable {}
extension IdentifiedAction: Decodable where ID: Decodable, Action: Decodable {}

/// The labelled `(id:action:)` form of a case path to an ``IdentifiedAction``: what `forEach` and the collection
/// scopes of a store work with.
@inlinable
func labelledElements<Root, ID: Hashable & Sendable, Action>(
  _ path: CasePath<Root, IdentifiedAction<ID, Action>>
) -> CasePath<Root, (id: ID, action: Action)> {
  CasePath(
    { path.embed(.element(id: $0.id, action: $0.action)) },
    extract: {
      guard case let .element(id, action)? = path.extract($0) else { return nil }
      return (id, action)
    })
}

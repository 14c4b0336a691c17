/// What happens to a navigation stack: an action for one of its elements, a push, or a pop.
///
/// ```swift
/// enum Action {
///   case path(StackActionOf<Path>)
///   static let pathCase = CasePath(Action.path) { if case let .path(action) = $0 { action } else { nil } }
/// }
/// store.send(.path(.push(id: 0, state: .detail(Detail.State()))))
/// store.send(.path(.element(id: 0, action: .detail(.editTapped))))
/// store.send(.path(.popFrom(id: 0)))
/// ```
public enum StackAction<State, Action> {
  /// An action for the element with `id`.
  indirect case element(id: StackElementID, action: Action)
  /// Pops the element with `id` and every element above it (a back button, or the element's own `dismiss`).
  case popFrom(id: StackElementID)
  /// Pushes `state` with `id`, which must be the store's next stack id (`@Dependency(\.stackElementID)`).
  case push(id: StackElementID, state: State)
}

/// The ``StackAction`` of a reducer's domain: `StackActionOf<Path>` is `StackAction<Path.State, Path.Action>`.
public typealias StackActionOf<R: ReducerDomain> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
extension StackAction: Encodable where State: Encodable, Action: Encodable {}
extension StackAction: Decodable where State: Decodable, Action: Decodable {}

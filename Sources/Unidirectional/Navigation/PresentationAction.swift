/// The actions of a presented child (a sheet, an alert, a destination enum): the child's own, or its dismissal.
///
/// ```swift
/// enum Action {
///   case destination(PresentationAction<Destination.Action>)
///   static let destinationCase = CasePath(Action.destination) {
///     if case let .destination(action) = $0 { action } else { nil }
///   }
/// }
/// store.send(.destination(.presented(.upload(.itemsPicked(images)))))
/// store.send(.destination(.dismiss))
/// ```
public enum PresentationAction<Action> {
  /// Dismisses the child: `ifLet` lets the parent see it, then sets the child state to nil and cancels the
  /// child's effects. A child sends it to itself with `@Dependency(\.dismiss)`.
  case dismiss
  /// An action of the presented child.
  indirect case presented(Action)
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: Encodable where Action: Encodable {}
extension PresentationAction: Decodable where Action: Decodable {}

/// What a root effect or a test step sends: a root rule, a child's rule in one of the child slots, or a change of
/// the children (presenting, removing, dismissing).
///
/// ```swift
/// let steps: [RootTarget] = [.structural(.addRow(1)), .child(.row(1), 0), .structural(.removeRow(1))]
/// ```
enum RootTarget: Hashable, Sendable {
  /// `.step(k)`: the root's rule `k`.
  case step(Int)
  /// A child's rule `k`, sent to the child in `slot`.
  case child(ChildSlot, Int)
  /// A root action that only changes which children exist.
  case structural(Structural)
  /// `.destination(.dismiss)`.
  case dismissDestination
}

/// Where a child lives in the root state.
enum ChildSlot: Hashable, Sendable {
  /// `Scope(state: \.scoped, …)`: always there, its effects not namespaced.
  case scoped
  /// `ifLet(\.optional, …)`.
  case optional
  /// `forEach(\.rows, …)`, the row with this id.
  case row(Int)
  /// `ifLet(\.$destination, …)` over a `PresentationState`.
  case destination

  /// The rules a child in this slot runs.
  var kind: ChildKind {
    switch self {
    case .scoped: .scoped
    case .optional: .optional
    case .row: .row
    case .destination: .destination
    }
  }
}

/// The four child reducers of a program, each with its own rules (every row runs the row rules).
enum ChildKind: Int, CaseIterable, Hashable, Sendable {
  case scoped, optional, row, destination
}

/// A root action that presents, replaces or removes children.
enum Structural: Hashable, Sendable {
  case presentOptional(id: Int)
  case clearOptional
  case addRow(id: Int)
  case removeRow(id: Int)
  case present(id: Int)
  /// `state.destination = nil` (not a `.dismiss` action: noticed by the presentation reducer all the same).
  case clearDestination
}

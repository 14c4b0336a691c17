/// Which child a navigation reducer (`ifLet`, `ifCaseLet`, presentation, stack) is running: its `Identifiable.id`
/// when it has one. A child replaced by one with another identity is a different child: the old one's effects are
/// cancelled, exactly as if it had been dismissed.
struct PresentationIdentity: Hashable, @unchecked Sendable {
  // Only ids of `Sendable` state are stored here in practice; `AnyHashable` is not `Sendable`.
  /// The child's id, or nil for a child that is not `Identifiable` (then only its presence counts).
  let id: AnyHashable?
}

/// The cancellation namespace of one child of a navigation reducer: where the child lives (a key path, or the
/// enum case it is scoped to) and which child it is.
struct NavigationNamespace: Hashable, @unchecked Sendable {
  // Key paths, metatype identifiers and child ids: all immutable.
  let location: AnyHashable
  let identity: PresentationIdentity
}

/// Reads a value's identity: its `Identifiable.id` when its type is `Identifiable`. The conformance is looked up
/// once, when the reducer is made, not for every action.
struct Identifier<Value>: @unchecked Sendable {
  // The closure captures nothing but a metatype.
  private let id: ((Value) -> AnyHashable?)?

  init() {
    if let identifiable = Value.self as? any Identifiable.Type {
      id = Self.reader(for: identifiable)
    } else {
      id = nil
    }
  }

  /// Whether values of this type have an id.
  var isIdentifiable: Bool { id != nil }

  /// The identity of `value`.
  func callAsFunction(_ value: Value) -> PresentationIdentity {
    PresentationIdentity(id: id?(value))
  }

  /// The id of `value` alone, nil when its type has none.
  func id(of value: Value) -> AnyHashable? { id?(value) }

  private static func reader<T: Identifiable>(for _: T.Type) -> (Value) -> AnyHashable? {
    { value in (value as? T).map { AnyHashable($0.id) } }
  }
}

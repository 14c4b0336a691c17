/// Which child a navigation reducer (`ifLet`, `ifCaseLet`, presentation, stack) is running: its `Identifiable.id`
/// when it has one. A child replaced by one with another identity is a different child: the old one's effects are
/// cancelled, exactly as if it had been dismissed.
@usableFromInline
struct PresentationIdentity: Hashable, @unchecked Sendable {
  // Only ids of `Sendable` state are stored here in practice; `AnyHashable` is not `Sendable`.
  /// The child's id, or nil for a child that is not `Identifiable` (then only its presence counts).
  @usableFromInline let id: AnyHashable?

  @inlinable
  init(id: AnyHashable?) {
    self.id = id
  }
}

/// The cancellation namespace of one child of a navigation reducer: where the child lives (a key path, or the
/// enum case it is scoped to) and which child it is.
struct NavigationNamespace: Hashable, @unchecked Sendable {
  // Key paths, metatype identifiers and child ids: all immutable.
  let location: AnyHashable
  let identity: PresentationIdentity
}

/// Reads a value's identity: its `Identifiable.id` when its type is `Identifiable`. The conformance is looked up
/// once per type, not for every reducer: a navigation reducer is rebuilt with its parent's `body` on every action.
/// It is kept as a metatype, not a closure: storing a closure over `Value` made every reducer look up the metadata
/// of its function type.
@usableFromInline
struct Identifier<Value>: @unchecked Sendable {
  // A metatype: immutable.
  @usableFromInline let identifiable: (any Identifiable.Type)?

  @inlinable
  init() {
    identifiable = identifiableType(of: Value.self)
  }

  /// Whether values of this type have an id.
  var isIdentifiable: Bool { identifiable != nil }

  /// The identity of `value`.
  @inlinable
  func callAsFunction(_ value: Value) -> PresentationIdentity {
    PresentationIdentity(id: id(of: value))
  }

  /// The id of `value` alone, nil when its type has none.
  @inlinable
  func id(of value: Value) -> AnyHashable? {
    guard let identifiable else { return nil }
    return Self.id(of: value, as: identifiable)
  }

  @usableFromInline
  static func id(of value: Value, as type: any Identifiable.Type) -> AnyHashable? {
    func read<T: Identifiable>(_: T.Type) -> AnyHashable? { (value as? T).map { AnyHashable($0.id) } }
    return read(type)
  }
}

/// The `Identifiable` conformance of `type`, if it has one (looked up once per type).
@usableFromInline
func identifiableType(of type: Any.Type) -> (any Identifiable.Type)? {
  identifiableTypes.value(for: type) { IdentifiableType(type: type as? any Identifiable.Type) }.type
}

/// A type's `Identifiable` conformance, if it has one.
private struct IdentifiableType: @unchecked Sendable {
  // A metatype: immutable.
  let type: (any Identifiable.Type)?
}

/// The `Identifiable` conformance of each type an ``Identifier`` was made for.
private let identifiableTypes = TypeCache<IdentifiableType>()

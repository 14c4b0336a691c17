/// A value and the id it is known by, for a collection of values that are not `Identifiable` themselves: TCA's
/// `Identified`.
///
/// ```swift
/// var names = IdentifiedArrayOf<Identified<UUID, String>>()
/// names.append(Identified("Blob", id: uuid()))
/// names[0].count  // 4: the value's members, by dynamic member lookup
/// ```
@dynamicMemberLookup
public struct Identified<ID: Hashable, Value>: Identifiable {
  /// The value's id.
  public let id: ID
  /// The value.
  public var value: Value

  /// `value`, known by `id`.
  public init(_ value: Value, id: ID) {
    self.id = id
    self.value = value
  }

  /// `value`, known by the id at `keyPath`.
  public init(_ value: Value, id keyPath: KeyPath<Value, ID>) {
    self.init(value, id: value[keyPath: keyPath])
  }

  /// `value`, known by the id `id` gives for it.
  public init(_ value: Value, id: (Value) throws -> ID) rethrows {
    self.init(value, id: try id(value))
  }

  /// A member of the value.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Member {
    get { value[keyPath: keyPath] }
    set { value[keyPath: keyPath] = newValue }
  }

  /// A read-only member of the value.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
    value[keyPath: keyPath]
  }

  /// The same id with `transform`'s value.
  public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> Identified<ID, NewValue> {
    Identified<ID, NewValue>(try transform(value), id: id)
  }
}

extension Identified: Equatable where Value: Equatable {}
extension Identified: Hashable where Value: Hashable {}
extension Identified: Sendable where ID: Sendable, Value: Sendable {}
extension Identified: Encodable where ID: Encodable, Value: Encodable {}
extension Identified: Decodable where ID: Decodable, Value: Decodable {}

extension Identified: CustomDebugStringConvertible {
  public var debugDescription: String {
    "Identified(id: \(String(reflecting: id)), value: \(String(reflecting: value)))"
  }
}

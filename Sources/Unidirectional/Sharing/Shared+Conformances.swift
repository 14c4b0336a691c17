extension Shared: Equatable where Value: Equatable {
  /// Two shared values are equal when their values are. In a `TestStore` assertion, comparing the expected state
  /// with the actual one compares the value the test expects with the value the asserted step left in the same
  /// shared value.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if let tracker = SharedChangeTracker.asserting, lhs.reference.isSame(as: rhs.reference) {
      return tracker.asserting { lhs.wrappedValue } == tracker.readingActual { rhs.wrappedValue }
    }
    return lhs.wrappedValue == rhs.wrappedValue
  }
}

extension SharedReader: Equatable where Value: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if let tracker = SharedChangeTracker.asserting, lhs.reference.isSame(as: rhs.reference) {
      return tracker.asserting { lhs.wrappedValue } == tracker.readingActual { rhs.wrappedValue }
    }
    return lhs.wrappedValue == rhs.wrappedValue
  }
}

extension Shared: Identifiable where Value: Identifiable {
  public var id: Value.ID { wrappedValue.id }
}

extension SharedReader: Identifiable where Value: Identifiable {
  public var id: Value.ID { wrappedValue.id }
}

extension Shared: CustomStringConvertible {
  /// `Shared<Int>(value: 0)`, `Shared<Int>(.appStorage("count"))`.
  public var description: String { "Shared<\(typeName(Value.self))>(\(reference.description))" }
}

extension SharedReader: CustomStringConvertible {
  /// `SharedReader<Int>(value: 0)`, `SharedReader<Int>(.appStorage("count"))`.
  public var description: String { "SharedReader<\(typeName(Value.self))>(\(reference.description))" }
}

/// State that holds shared values dumps and diffs them as their values, under the property's name (`count`, not
/// `_count`); in a `TestStore` failure the expected side shows the value the test expected.
extension Shared: CustomDumpRepresentable, WrappedPropertyDumping {
  public var customDumpValue: Any { wrappedValue }
}

extension SharedReader: CustomDumpRepresentable, WrappedPropertyDumping {
  public var customDumpValue: Any { wrappedValue }
}

/// Encodes the value (an action log records a state holding shared values as their values).
extension Shared: Encodable where Value: Encodable {
  public func encode(to encoder: any Encoder) throws {
    try reference.valueForEncoding().encode(to: encoder)
  }
}

/// Decodes a value into a new shared value that is not persisted (a state restored from an action log).
extension Shared: Decodable where Value: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(reference: RootReference(value: try Value(from: decoder)))
  }
}

extension SharedReader: Encodable where Value: Encodable {
  public func encode(to encoder: any Encoder) throws {
    try reference.valueForEncoding().encode(to: encoder)
  }
}

extension SharedReader: Decodable where Value: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(reference: RootReference(value: try Value(from: decoder)))
  }
}

extension RangeReplaceableCollection {
  /// The elements of a shared identified array, each as a shared view of that element (by id, so it follows the
  /// element when the array is reordered): `for row in Array(store.$todos) { … }`.
  public init<ID, Element>(_ shared: Shared<IdentifiedArray<ID, Element>>)
  where Self.Element == Shared<Element> {
    self.init()
    let ids = shared.wrappedValue.ids
    reserveCapacity(ids.count)
    for id in ids {
      if let element = Shared<Element>(shared[id: id]) { append(element) }
    }
  }
}

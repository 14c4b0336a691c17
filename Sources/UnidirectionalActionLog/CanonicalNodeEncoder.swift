import Foundation
import Unidirectional

// MARK: - Unordered collections

/// A collection whose `Codable` form lists elements in hash order, which changes from one process to the next.
protocol CanonicalUnorderedEncodable {
  /// The canonical bytes of the value: its elements (or key-value pairs) in a stable order.
  func canonicalUnorderedNode(codingPath: [any CodingKey]) throws -> CanonicalNode?
}

extension Set: CanonicalUnorderedEncodable where Element: Encodable {
  func canonicalUnorderedNode(codingPath: [any CodingKey]) throws -> CanonicalNode? {
    var elements: [[UInt8]] = []
    elements.reserveCapacity(count)
    for (index, element) in enumerated() {
      var bytes: [UInt8] = []
      try CanonicalNodeEncoder.node(for: element, codingPath: codingPath + [CanonicalIndexKey(index)])
        .write(to: &bytes)
      elements.append(bytes)
    }
    elements.sort { $0.lexicographicallyPrecedes($1) }
    let array = CanonicalArray()
    array.items = elements.map(CanonicalNode.raw)
    return .array(array)
  }
}

extension Dictionary: CanonicalUnorderedEncodable where Key: Encodable, Value: Encodable {
  func canonicalUnorderedNode(codingPath: [any CodingKey]) throws -> CanonicalNode? {
    // String, Int and CodingKeyRepresentable keys encode as a JSON object, whose keys the writer sorts.
    if Key.self == String.self || Key.self == Int.self || Key.self is any CodingKeyRepresentable.Type {
      return nil
    }
    var pairs: [(key: [UInt8], value: [UInt8])] = []
    pairs.reserveCapacity(count)
    for (index, (key, value)) in enumerated() {
      var keyBytes: [UInt8] = []
      var valueBytes: [UInt8] = []
      let path = codingPath + [CanonicalIndexKey(index * 2)]
      try CanonicalNodeEncoder.node(for: key, codingPath: path).write(to: &keyBytes)
      try CanonicalNodeEncoder.node(for: value, codingPath: path).write(to: &valueBytes)
      pairs.append((keyBytes, valueBytes))
    }
    pairs.sort { $0.key.lexicographicallyPrecedes($1.key) }
    let array = CanonicalArray()
    array.items = pairs.flatMap { [CanonicalNode.raw($0.key), CanonicalNode.raw($0.value)] }
    return .array(array)
  }
}

// MARK: - Type traits

/// What the encoder must check about a type beyond its `Encodable` conformance, found once per type: a
/// negative dynamic cast to a protocol costs several hundred instructions, and it would run for every value.
struct CanonicalTypeTraits: OptionSet {
  let rawValue: UInt8

  /// Conforms to ``ActionLogRedacting``.
  static let redacting = CanonicalTypeTraits(rawValue: 1)
  /// A `Set` or `Dictionary`: elements in hash order.
  static let unordered = CanonicalTypeTraits(rawValue: 2)
  /// `Data`, `URL` or `Decimal`: written the way `JSONDecoder` reads them.
  static let foundation = CanonicalTypeTraits(rawValue: 4)

  /// Types seen so far (a short list: a feature has few types).
  private static let cache = LockIsolated<[(type: ObjectIdentifier, traits: CanonicalTypeTraits)]>([])
  private static let cacheLimit = 256

  static func of<T>(_ type: T.Type) -> CanonicalTypeTraits {
    let id = ObjectIdentifier(type)
    if let cached = cache.withLock({ entries in entries.first { $0.type == id }?.traits }) { return cached }
    var traits: CanonicalTypeTraits = []
    if type is any ActionLogRedacting.Type { traits.insert(.redacting) }
    if type is any CanonicalUnorderedEncodable.Type { traits.insert(.unordered) }
    if type == Data.self || type == URL.self || type == Decimal.self { traits.insert(.foundation) }
    cache.withLock { entries in
      if entries.count < cacheLimit, !entries.contains(where: { $0.type == id }) { entries.append((id, traits)) }
    }
    return traits
  }
}

// MARK: - Encoder

/// The `Encoder` behind ``CanonicalJSONEncoder``: each value encodes into one of these, which holds its node.
final class CanonicalNodeEncoder: Encoder {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  private(set) var node: CanonicalNode?
  /// Where a `superEncoder` writes its value in the container it was created from.
  private let sink: ((CanonicalNode) -> Void)?

  init(codingPath: [any CodingKey], sink: ((CanonicalNode) -> Void)? = nil) {
    self.codingPath = codingPath
    self.sink = sink
  }

  /// Encodes `value` (redacted first if it asks to be), with special forms for Foundation types.
  static func node<T: Encodable>(for value: T, codingPath: [any CodingKey]) throws -> CanonicalNode {
    // Collections of primitives reach here once per element: answer those without any dynamic cast.
    if T.self == String.self { return .string(reinterpret(value, as: String.self)) }
    if T.self == Int.self { return .int(Int64(reinterpret(value, as: Int.self))) }
    if T.self == Bool.self { return .bool(reinterpret(value, as: Bool.self)) }
    if T.self == Double.self {
      return try CanonicalPrimitive.floating(reinterpret(value, as: Double.self), codingPath: codingPath)
    }
    let traits = CanonicalTypeTraits.of(T.self)
    if traits.contains(.redacting), let redacting = value as? any ActionLogRedacting {
      return try redactedNode(redacting, codingPath: codingPath)
    }
    return try unredactedNode(for: value, traits: traits, codingPath: codingPath)
  }

  /// `value` as `U`, which must be `T` itself.
  @inline(__always)
  private static func reinterpret<T, U>(_ value: T, as type: U.Type) -> U {
    withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: U.self) }
  }

  private static func redactedNode<R: ActionLogRedacting>(_ value: R, codingPath: [any CodingKey]) throws
    -> CanonicalNode
  {
    // The replacement itself is not asked again (it would return itself), but its children are.
    let replacement = value.redactedForLog
    return try unredactedNode(for: replacement, traits: CanonicalTypeTraits.of(R.self), codingPath: codingPath)
  }

  private static func unredactedNode<T: Encodable>(
    for value: T, traits: CanonicalTypeTraits, codingPath: [any CodingKey]
  ) throws -> CanonicalNode {
    if traits.contains(.foundation) {
      if T.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
      if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
      if T.self == Decimal.self, let decimal = value as? Decimal {
        guard decimal.isFinite else {
          throw EncodingError.invalidValue(
            decimal, .init(codingPath: codingPath, debugDescription: "Decimal NaN cannot be written as JSON."))
        }
        return .number(decimal.description)
      }
    }
    if traits.contains(.unordered), let unordered = value as? any CanonicalUnorderedEncodable,
      let node = try unordered.canonicalUnorderedNode(codingPath: codingPath)
    {
      return node
    }
    let encoder = CanonicalNodeEncoder(codingPath: codingPath)
    try value.encode(to: encoder)
    // A value that encodes nothing is an empty object, as in JSONEncoder.
    return encoder.node ?? .object(CanonicalObject())
  }

  func store(_ node: CanonicalNode) {
    self.node = node
    sink?(node)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let object: CanonicalObject
    if case let .object(existing) = node {
      object = existing
    } else {
      object = CanonicalObject()
      store(.object(object))
    }
    return KeyedEncodingContainer(CanonicalKeyedContainer<Key>(object: object, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let array: CanonicalArray
    if case let .array(existing) = node {
      array = existing
    } else {
      array = CanonicalArray()
      store(.array(array))
    }
    return CanonicalUnkeyedContainer(array: array, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    CanonicalSingleValueContainer(encoder: self)
  }
}

/// Encodes primitives to nodes, shared by the three container kinds.
enum CanonicalPrimitive {
  static func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ value: F, codingPath: [any CodingKey]
  ) throws -> CanonicalNode {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: codingPath, debugDescription: "\(value) cannot be written as a JSON number."))
    }
    // Integral values print as "1.0": keep that form, JSONDecoder reads it for any numeric type.
    return .number(value.description)
  }
}

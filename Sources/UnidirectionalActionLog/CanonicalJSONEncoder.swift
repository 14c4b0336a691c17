import Foundation
import Unidirectional

/// Encodes `Encodable` values as canonical JSON: the one byte-exact form action logs are written in (actions and
/// the initial state), the same for equal values in every process.
///
/// Canonical form:
/// - no whitespace; object keys sorted by their UTF-8 bytes; a key encoded twice keeps its last value;
/// - strings escape only `"`, `\` and control characters (`\n`, `\r`, `\t`, `\b`, `\f`, else `\u00XX`);
/// - integers in decimal; floating-point numbers in Swift's shortest round-trip form (`0.1`, `1e-05`);
///   NaN and infinities are refused (`EncodingError.invalidValue`);
/// - `Data` as a base64 string, `URL` as its absolute string, `Decimal` as a number, `Date` as seconds since
///   2001-01-01 (its own `Codable` form) — all as Foundation's `JSONDecoder` reads them by default;
/// - unordered collections in a stable order: a `Set`'s elements and a dictionary whose keys encode as values
///   (neither `String`, `Int` nor `CodingKeyRepresentable`) as their pairs, sorted by their canonical bytes;
/// - any value conforming to ``ActionLogRedacting`` is replaced by its `redactedForLog` first, at every depth.
///
/// ```swift
/// let bytes = try CanonicalJSONEncoder.encode(State(count: 1, name: "a"))   // {"count":1,"name":"a"}
/// ```
enum CanonicalJSONEncoder {
  /// The canonical JSON bytes of `value`.
  static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let node = try CanonicalNodeEncoder.node(for: value, codingPath: [])
    var output: [UInt8] = []
    output.reserveCapacity(128)
    node.write(to: &output)
    return output
  }

  /// Appends the canonical JSON bytes of `value` to `output` (nothing if encoding fails).
  static func encode<T: Encodable>(_ value: T, appendingTo output: inout [UInt8]) throws {
    try CanonicalNodeEncoder.node(for: value, codingPath: []).write(to: &output)
  }
}

// MARK: - Tree

/// A JSON value being built; containers are classes so nested containers can fill them after they are inserted.
enum CanonicalNode {
  case null
  case bool(Bool)
  case int(Int64)
  case uint(UInt64)
  /// A number already in its canonical text (floating point, `Decimal`).
  case number(String)
  case string(String)
  case array(CanonicalArray)
  case object(CanonicalObject)
  /// Canonical bytes written verbatim (elements of unordered collections, sorted by these bytes).
  case raw([UInt8])

  func write(to output: inout [UInt8]) {
    switch self {
    case .null: output.append(contentsOf: "null".utf8)
    case let .bool(value): output.append(contentsOf: (value ? "true" : "false").utf8)
    case let .int(value): CanonicalNode.writeInteger(value, to: &output)
    case let .uint(value): CanonicalNode.writeUnsigned(value, to: &output)
    case let .number(text): output.append(contentsOf: text.utf8)
    case let .string(text): CanonicalNode.writeString(text, to: &output)
    case let .array(array):
      output.append(UInt8(ascii: "["))
      for (index, item) in array.items.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        item.write(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case let .object(object):
      output.append(UInt8(ascii: "{"))
      if object.entries.count == 1 {
        CanonicalNode.writeString(object.entries[0].key, to: &output)
        output.append(UInt8(ascii: ":"))
        object.entries[0].value.write(to: &output)
      } else {
        for (position, index) in object.writeOrder().enumerated() {
          if position > 0 { output.append(UInt8(ascii: ",")) }
          CanonicalNode.writeString(object.entries[index].key, to: &output)
          output.append(UInt8(ascii: ":"))
          object.entries[index].value.write(to: &output)
        }
      }
      output.append(UInt8(ascii: "}"))
    case let .raw(bytes): output.append(contentsOf: bytes)
    }
  }

  static func writeInteger(_ value: Int64, to output: inout [UInt8]) {
    if value < 0 {
      output.append(UInt8(ascii: "-"))
      writeUnsigned(value.magnitude, to: &output)
    } else {
      writeUnsigned(UInt64(value), to: &output)
    }
  }

  static func writeUnsigned(_ value: UInt64, to output: inout [UInt8]) {
    if value < 10 {
      output.append(UInt8(ascii: "0") &+ UInt8(value))
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      while rest > 0 {
        buffer[23 - count] = UInt8(ascii: "0") &+ UInt8(rest % 10)
        rest /= 10
        count += 1
      }
      output.append(contentsOf: buffer[(24 - count)...])
    }
  }

  static func writeString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    // Most strings need no escape: copy them whole.
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
      for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        return false
      }
      output.append(contentsOf: bytes)
      return true
    }
    if copied == true {
      output.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        output.append(contentsOf: [
          UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
          hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
        ])
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}

/// The items of a JSON array being built.
final class CanonicalArray {
  var items: [CanonicalNode] = []
}

/// The entries of a JSON object being built, in insertion order until written.
final class CanonicalObject {
  var entries: [(key: String, value: CanonicalNode)] = []

  init() { entries.reserveCapacity(8) }

  /// Adds an entry; if `key` is set again, the last value wins when written.
  func set(_ key: String, _ value: CanonicalNode) {
    entries.append((key, value))
  }

  /// Replaces the value last set for `key` (used by `superEncoder`, which sets a placeholder first).
  func replace(_ key: String, _ value: CanonicalNode) {
    if let index = entries.lastIndex(where: { $0.key == key }) {
      entries[index].value = value
    } else {
      entries.append((key, value))
    }
  }

  /// The indices of the entries to write, in key order, one per key (the last set). Keys compare as Swift
  /// strings: by Unicode scalar values, which for the usual (NFC) keys is the order of their UTF-8 bytes.
  func writeOrder() -> [Int] {
    let count = entries.count
    var order: [Int] = []
    order.reserveCapacity(count)
    // Insertion sort: objects are small, and often nearly sorted already.
    for index in 0..<count {
      let key = entries[index].key
      var position = order.count
      while position > 0, key < entries[order[position - 1]].key { position -= 1 }
      if position > 0, entries[order[position - 1]].key == key {
        order[position - 1] = index  // the same key again: the last value wins
      } else {
        order.insert(index, at: position)
      }
    }
    return order
  }
}

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

  fileprivate func store(_ node: CanonicalNode) {
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

struct CanonicalKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let object: CanonicalObject
  let codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .null) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, .bool(value)) }
  mutating func encode(_ value: String, forKey key: Key) throws { object.set(key.stringValue, .string(value)) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    object.set(key.stringValue, try CanonicalPrimitive.floating(value, codingPath: codingPath + [key]))
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    object.set(key.stringValue, try CanonicalPrimitive.floating(value, codingPath: codingPath + [key]))
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { object.set(key.stringValue, .int(Int64(value))) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(key.stringValue, .int(Int64(value))) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(key.stringValue, .int(Int64(value))) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(key.stringValue, .int(Int64(value))) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(key.stringValue, .int(value)) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(key.stringValue, .uint(UInt64(value))) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(key.stringValue, .uint(UInt64(value))) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    object.set(key.stringValue, .uint(UInt64(value)))
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    object.set(key.stringValue, .uint(UInt64(value)))
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(key.stringValue, .uint(value)) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    object.set(key.stringValue, try CanonicalNodeEncoder.node(for: value, codingPath: codingPath + [key]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = CanonicalObject()
    object.set(key.stringValue, .object(nested))
    return KeyedEncodingContainer(CanonicalKeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = CanonicalArray()
    object.set(key.stringValue, .array(nested))
    return CanonicalUnkeyedContainer(array: nested, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(named: "super", key: CanonicalIndexKey(stringValue: "super"))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(named: key.stringValue, key: key)
  }

  private func superEncoder(named name: String, key: any CodingKey) -> any Encoder {
    let object = self.object
    object.set(name, .object(CanonicalObject()))
    return CanonicalNodeEncoder(codingPath: codingPath + [key]) { object.replace(name, $0) }
  }
}

struct CanonicalUnkeyedContainer: UnkeyedEncodingContainer {
  let array: CanonicalArray
  let codingPath: [any CodingKey]
  var count: Int { array.items.count }

  private var nextKey: any CodingKey { CanonicalIndexKey(array.items.count) }

  mutating func encodeNil() throws { array.items.append(.null) }
  mutating func encode(_ value: Bool) throws { array.items.append(.bool(value)) }
  mutating func encode(_ value: String) throws { array.items.append(.string(value)) }
  mutating func encode(_ value: Double) throws {
    array.items.append(try CanonicalPrimitive.floating(value, codingPath: codingPath + [nextKey]))
  }
  mutating func encode(_ value: Float) throws {
    array.items.append(try CanonicalPrimitive.floating(value, codingPath: codingPath + [nextKey]))
  }
  mutating func encode(_ value: Int) throws { array.items.append(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { array.items.append(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { array.items.append(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { array.items.append(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { array.items.append(.int(value)) }
  mutating func encode(_ value: UInt) throws { array.items.append(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { array.items.append(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt16) throws { array.items.append(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt32) throws { array.items.append(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt64) throws { array.items.append(.uint(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    array.items.append(try CanonicalNodeEncoder.node(for: value, codingPath: codingPath + [nextKey]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let key = nextKey
    let nested = CanonicalObject()
    array.items.append(.object(nested))
    return KeyedEncodingContainer(CanonicalKeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let key = nextKey
    let nested = CanonicalArray()
    array.items.append(.array(nested))
    return CanonicalUnkeyedContainer(array: nested, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    let array = self.array
    let index = array.items.count
    array.items.append(.object(CanonicalObject()))
    return CanonicalNodeEncoder(codingPath: codingPath + [CanonicalIndexKey(index)]) { array.items[index] = $0 }
  }
}

struct CanonicalSingleValueContainer: SingleValueEncodingContainer {
  let encoder: CanonicalNodeEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  func encodeNil() throws { encoder.store(.null) }
  func encode(_ value: Bool) throws { encoder.store(.bool(value)) }
  func encode(_ value: String) throws { encoder.store(.string(value)) }
  func encode(_ value: Double) throws { encoder.store(try CanonicalPrimitive.floating(value, codingPath: codingPath)) }
  func encode(_ value: Float) throws { encoder.store(try CanonicalPrimitive.floating(value, codingPath: codingPath)) }
  func encode(_ value: Int) throws { encoder.store(.int(Int64(value))) }
  func encode(_ value: Int8) throws { encoder.store(.int(Int64(value))) }
  func encode(_ value: Int16) throws { encoder.store(.int(Int64(value))) }
  func encode(_ value: Int32) throws { encoder.store(.int(Int64(value))) }
  func encode(_ value: Int64) throws { encoder.store(.int(value)) }
  func encode(_ value: UInt) throws { encoder.store(.uint(UInt64(value))) }
  func encode(_ value: UInt8) throws { encoder.store(.uint(UInt64(value))) }
  func encode(_ value: UInt16) throws { encoder.store(.uint(UInt64(value))) }
  func encode(_ value: UInt32) throws { encoder.store(.uint(UInt64(value))) }
  func encode(_ value: UInt64) throws { encoder.store(.uint(value)) }
  func encode<T: Encodable>(_ value: T) throws {
    encoder.store(try CanonicalNodeEncoder.node(for: value, codingPath: codingPath))
  }
}

/// An array index or a fixed name, as a coding key for error paths.
struct CanonicalIndexKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(_ index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init?(intValue: Int) { self.init(intValue) }
}

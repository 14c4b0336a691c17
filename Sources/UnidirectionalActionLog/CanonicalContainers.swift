import Foundation

// The three container kinds of ``CanonicalNodeEncoder``, each filling a node of the canonical tree.

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

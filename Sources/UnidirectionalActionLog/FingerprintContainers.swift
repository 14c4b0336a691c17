import Foundation

// The three container kinds of ``FingerprintEncoder``, each hashing into the encoder that made it.

struct FingerprintKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: FingerprintEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  private func add(_ key: Key, _ hash: UInt64) { encoder.addEntry(key.stringValue, hash) }

  mutating func encodeNil(forKey key: Key) throws { add(key, FingerprintEncoder.tagged(UInt8(ascii: "n"))) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, FingerprintEncoder.boolean(value)) }
  mutating func encode(_ value: String, forKey key: Key) throws { add(key, FingerprintEncoder.string(value)) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    add(key, try FingerprintEncoder.floating(value) { codingPath + [key] })
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    add(key, try FingerprintEncoder.floating(value) { codingPath + [key] })
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { add(key, FingerprintEncoder.integer(Int64(value))) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { add(key, FingerprintEncoder.integer(Int64(value))) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { add(key, FingerprintEncoder.integer(Int64(value))) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { add(key, FingerprintEncoder.integer(Int64(value))) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { add(key, FingerprintEncoder.integer(value)) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { add(key, FingerprintEncoder.unsigned(UInt64(value))) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { add(key, FingerprintEncoder.unsigned(UInt64(value))) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    add(key, FingerprintEncoder.unsigned(UInt64(value)))
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    add(key, FingerprintEncoder.unsigned(UInt64(value)))
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { add(key, FingerprintEncoder.unsigned(value)) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    add(key, try FingerprintEncoder.hash(of: value, parent: encoder, key: key))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = FingerprintEncoder(parent: encoder, key: key)
    encoder.addPendingEntry(key.stringValue, child)
    return child.container(keyedBy: NestedKey.self)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = FingerprintEncoder(parent: encoder, key: key)
    encoder.addPendingEntry(key.stringValue, child)
    return child.unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let key = CanonicalIndexKey(stringValue: "super")
    let child = FingerprintEncoder(parent: encoder, key: key)
    encoder.addPendingEntry("super", child)
    return child
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let child = FingerprintEncoder(parent: encoder, key: key)
    encoder.addPendingEntry(key.stringValue, child)
    return child
  }
}

struct FingerprintUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: FingerprintEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { encoder.items.count }

  private var nextKey: any CodingKey { CanonicalIndexKey(encoder.items.count) }
  private func add(_ hash: UInt64) { encoder.items.append(.hash(hash)) }

  mutating func encodeNil() throws { add(FingerprintEncoder.tagged(UInt8(ascii: "n"))) }
  mutating func encode(_ value: Bool) throws { add(FingerprintEncoder.boolean(value)) }
  mutating func encode(_ value: String) throws { add(FingerprintEncoder.string(value)) }
  mutating func encode(_ value: Double) throws {
    let key = nextKey
    add(try FingerprintEncoder.floating(value) { codingPath + [key] })
  }
  mutating func encode(_ value: Float) throws {
    let key = nextKey
    add(try FingerprintEncoder.floating(value) { codingPath + [key] })
  }
  mutating func encode(_ value: Int) throws { add(FingerprintEncoder.integer(Int64(value))) }
  mutating func encode(_ value: Int8) throws { add(FingerprintEncoder.integer(Int64(value))) }
  mutating func encode(_ value: Int16) throws { add(FingerprintEncoder.integer(Int64(value))) }
  mutating func encode(_ value: Int32) throws { add(FingerprintEncoder.integer(Int64(value))) }
  mutating func encode(_ value: Int64) throws { add(FingerprintEncoder.integer(value)) }
  mutating func encode(_ value: UInt) throws { add(FingerprintEncoder.unsigned(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { add(FingerprintEncoder.unsigned(UInt64(value))) }
  mutating func encode(_ value: UInt16) throws { add(FingerprintEncoder.unsigned(UInt64(value))) }
  mutating func encode(_ value: UInt32) throws { add(FingerprintEncoder.unsigned(UInt64(value))) }
  mutating func encode(_ value: UInt64) throws { add(FingerprintEncoder.unsigned(value)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    add(try FingerprintEncoder.hash(of: value, parent: encoder, key: nextKey))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = FingerprintEncoder(parent: encoder, key: nextKey)
    encoder.items.append(.pending(child))
    return child.container(keyedBy: NestedKey.self)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = FingerprintEncoder(parent: encoder, key: nextKey)
    encoder.items.append(.pending(child))
    return child.unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let child = FingerprintEncoder(parent: encoder, key: nextKey)
    encoder.items.append(.pending(child))
    return child
  }
}

struct FingerprintSingleValueContainer: SingleValueEncodingContainer {
  let encoder: FingerprintEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  func encodeNil() throws { encoder.setScalar(FingerprintEncoder.tagged(UInt8(ascii: "n"))) }
  func encode(_ value: Bool) throws { encoder.setScalar(FingerprintEncoder.boolean(value)) }
  func encode(_ value: String) throws { encoder.setScalar(FingerprintEncoder.string(value)) }
  func encode(_ value: Double) throws {
    encoder.setScalar(try FingerprintEncoder.floating(value) { codingPath })
  }
  func encode(_ value: Float) throws {
    encoder.setScalar(try FingerprintEncoder.floating(value) { codingPath })
  }
  func encode(_ value: Int) throws { encoder.setScalar(FingerprintEncoder.integer(Int64(value))) }
  func encode(_ value: Int8) throws { encoder.setScalar(FingerprintEncoder.integer(Int64(value))) }
  func encode(_ value: Int16) throws { encoder.setScalar(FingerprintEncoder.integer(Int64(value))) }
  func encode(_ value: Int32) throws { encoder.setScalar(FingerprintEncoder.integer(Int64(value))) }
  func encode(_ value: Int64) throws { encoder.setScalar(FingerprintEncoder.integer(value)) }
  func encode(_ value: UInt) throws { encoder.setScalar(FingerprintEncoder.unsigned(UInt64(value))) }
  func encode(_ value: UInt8) throws { encoder.setScalar(FingerprintEncoder.unsigned(UInt64(value))) }
  func encode(_ value: UInt16) throws { encoder.setScalar(FingerprintEncoder.unsigned(UInt64(value))) }
  func encode(_ value: UInt32) throws { encoder.setScalar(FingerprintEncoder.unsigned(UInt64(value))) }
  func encode(_ value: UInt64) throws { encoder.setScalar(FingerprintEncoder.unsigned(value)) }
  func encode<T: Encodable>(_ value: T) throws {
    encoder.setScalar(try FingerprintEncoder.hash(of: value, parent: encoder, key: nil))
  }
}

import Foundation
import Unidirectional

/// Computes an ``ActionLogFingerprint`` straight from a value's `Encodable` form: no JSON text, no tree, no
/// sorting. Objects combine their entries with a commutative sum, so key order (and a dictionary's or set's hash
/// order) cannot change the result; arrays hash their elements in order.
///
/// The hash, with `fnv(bytes)` FNV-1a 64 and `mix` the splitmix64 finalizer:
/// - `nil` → `fnv("n")`; `true`/`false` → `fnv("t")`/`fnv("f")`;
/// - an integer → `fnv("i" + its 8 little-endian bytes)` (values above `Int64.max`: `fnv("u" + bytes)`);
/// - a floating-point number, a `Decimal` → `fnv("r" + its shortest decimal text)` (NaN and infinities refused);
/// - a string, a `URL` (its absolute string) → `fnv("s" + UTF-8 bytes)`; `Data` → `fnv("d" + bytes)`;
/// - an array → `fnv("[" + count + each element's hash)`;
/// - an object (keyed container) → `fnv("{" + count + Σ mix(fnv("k" + key) &+ φ·hash(value)))`, where a key
///   encoded twice counts twice; a `Set` or a dictionary with non-string keys → the same sum over its elements
///   (or key-value pairs), tagged `"("`;
/// - a value conforming to ``ActionLogRedacting`` hashes as its `redactedForLog`; ``Redacted`` as `"<redacted>"`.
///
/// ```swift
/// let fingerprint = try FingerprintEncoder.fingerprint(of: state)
/// ```
final class FingerprintEncoder: Encoder {
  /// The fingerprint of `value`.
  static func fingerprint<T: Encodable>(of value: T) throws -> UInt64 {
    try hash(of: value, parent: nil, key: nil)
  }

  // MARK: Hash primitives

  static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x0000_0100_0000_01b3
  /// The golden-ratio constant that weights a value's hash against its key's.
  static let phi: UInt64 = 0x9e37_79b9_7f4a_7c15

  @inline(__always)
  static func feed(_ byte: UInt8, into hash: inout UInt64) {
    hash = (hash ^ UInt64(byte)) &* prime
  }

  @inline(__always)
  static func feed(_ word: UInt64, into hash: inout UInt64) {
    var word = word
    for _ in 0..<8 {
      hash = (hash ^ (word & 0xFF)) &* prime
      word >>= 8
    }
  }

  static func feed(_ text: String, into hash: inout UInt64) {
    var text = text
    text.withUTF8 { bytes in
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
    }
  }

  @inline(__always)
  static func tagged(_ tag: UInt8) -> UInt64 {
    var hash = offsetBasis
    feed(tag, into: &hash)
    return hash
  }

  static func integer(_ value: Int64) -> UInt64 {
    var hash = tagged(UInt8(ascii: "i"))
    feed(UInt64(bitPattern: value), into: &hash)
    return hash
  }

  static func unsigned(_ value: UInt64) -> UInt64 {
    if value <= UInt64(Int64.max) { return integer(Int64(value)) }
    var hash = tagged(UInt8(ascii: "u"))
    feed(value, into: &hash)
    return hash
  }

  static func string(_ value: String) -> UInt64 {
    var hash = tagged(UInt8(ascii: "s"))
    feed(value, into: &hash)
    return hash
  }

  static func boolean(_ value: Bool) -> UInt64 { tagged(value ? UInt8(ascii: "t") : UInt8(ascii: "f")) }

  static func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ value: F, path: () -> [any CodingKey]
  ) throws -> UInt64 {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: path(), debugDescription: "\(value) cannot be written as a JSON number."))
    }
    var hash = tagged(UInt8(ascii: "r"))
    feed(value.description, into: &hash)
    return hash
  }

  /// One object entry's contribution to its object's sum.
  @inline(__always)
  static func entry(key: String, value: UInt64) -> UInt64 {
    var keyHash = tagged(UInt8(ascii: "k"))
    feed(key, into: &keyHash)
    return mix(keyHash &+ phi &* value)
  }

  /// splitmix64's finalizer: spreads every input bit over the output before entries are summed.
  @inline(__always)
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  static func unordered(tag: UInt8, count: Int, sum: UInt64) -> UInt64 {
    var hash = tagged(tag)
    feed(UInt64(count), into: &hash)
    feed(sum, into: &hash)
    return hash
  }

  // MARK: Values

  /// The hash of `value`, encoded by a child of `parent` under `key`.
  static func hash<T: Encodable>(of value: T, parent: FingerprintEncoder?, key: (any CodingKey)?) throws -> UInt64 {
    // Collections of primitives reach here once per element: answer those without any dynamic cast.
    if T.self == String.self { return string(reinterpret(value, as: String.self)) }
    if T.self == Int.self { return integer(Int64(reinterpret(value, as: Int.self))) }
    if T.self == Bool.self { return boolean(reinterpret(value, as: Bool.self)) }
    let traits = CanonicalTypeTraits.of(T.self)
    if traits.contains(.redacting), let redacting = value as? any ActionLogRedacting {
      return try redactedHash(redacting, parent: parent, key: key)
    }
    return try unredactedHash(of: value, traits: traits, parent: parent, key: key)
  }

  @inline(__always)
  private static func reinterpret<T, U>(_ value: T, as type: U.Type) -> U {
    withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: U.self) }
  }

  private static func redactedHash<R: ActionLogRedacting>(
    _ value: R, parent: FingerprintEncoder?, key: (any CodingKey)?
  ) throws -> UInt64 {
    // The replacement itself is not asked again (it would return itself), but its children are.
    try unredactedHash(of: value.redactedForLog, traits: CanonicalTypeTraits.of(R.self), parent: parent, key: key)
  }

  private static func unredactedHash<T: Encodable>(
    of value: T, traits: CanonicalTypeTraits, parent: FingerprintEncoder?, key: (any CodingKey)?
  ) throws -> UInt64 {
    if T.self == Double.self {
      return try floating(reinterpret(value, as: Double.self)) { path(parent, key) }
    }
    if traits.contains(.foundation) {
      if T.self == Data.self, let data = value as? Data {
        var hash = tagged(UInt8(ascii: "d"))
        for byte in data { feed(byte, into: &hash) }
        return hash
      }
      if T.self == URL.self, let url = value as? URL { return string(url.absoluteString) }
      if T.self == Decimal.self, let decimal = value as? Decimal {
        guard decimal.isFinite else {
          throw EncodingError.invalidValue(
            decimal, .init(codingPath: path(parent, key), debugDescription: "Decimal NaN cannot be written as JSON."))
        }
        var hash = tagged(UInt8(ascii: "r"))
        feed(decimal.description, into: &hash)
        return hash
      }
    }
    if traits.contains(.unordered), let unordered = value as? any FingerprintUnordered,
      let hash = try unordered.fingerprintUnordered(parent: parent, key: key)
    {
      return hash
    }
    let encoder = FingerprintEncoder(parent: parent, key: key)
    try value.encode(to: encoder)
    return encoder.finalHash()
  }

  static func path(_ parent: FingerprintEncoder?, _ key: (any CodingKey)?) -> [any CodingKey] {
    (parent?.codingPath ?? []) + (key.map { [$0] } ?? [])
  }

  // MARK: Encoder

  /// What this encoder's value turned out to be.
  private enum Kind {
    case empty
    case scalar(UInt64)
    case object
    case array
  }

  /// Unowned: a parent keeps the encoders of its nested containers (`pendingEntries`, `items`) until its hash is
  /// taken, so a strong reference back made a cycle and leaked both for every nested container. A child is used
  /// only while its parent's value is being encoded.
  private unowned let parent: FingerprintEncoder?
  private let key: (any CodingKey)?
  private var kind = Kind.empty
  // An object: the running sum of its entries, and nested containers whose hashes are known only at the end.
  var objectCount = 0
  var objectSum: UInt64 = 0
  var pendingEntries: [(key: String, child: FingerprintEncoder)] = []
  // An array: the elements' hashes in order, or the encoders still filling them.
  var items: [Item] = []

  enum Item {
    case hash(UInt64)
    case pending(FingerprintEncoder)
  }

  init(parent: FingerprintEncoder?, key: (any CodingKey)?) {
    self.parent = parent
    self.key = key
  }

  /// Built only when asked for (errors, unusual `encode(to:)`s): building it for every value costs allocations.
  var codingPath: [any CodingKey] { Self.path(parent, key) }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func setScalar(_ hash: UInt64) { kind = .scalar(hash) }

  /// The hash of the value once its encoding is done (nested containers included).
  func finalHash() -> UInt64 {
    switch kind {
    case .empty:
      return Self.unordered(tag: UInt8(ascii: "{"), count: 0, sum: 0)
    case let .scalar(hash):
      return hash
    case .object:
      var sum = objectSum
      for pending in pendingEntries { sum &+= Self.entry(key: pending.key, value: pending.child.finalHash()) }
      return Self.unordered(tag: UInt8(ascii: "{"), count: objectCount, sum: sum)
    case .array:
      var hash = Self.tagged(UInt8(ascii: "["))
      Self.feed(UInt64(items.count), into: &hash)
      for item in items {
        switch item {
        case let .hash(value): Self.feed(value, into: &hash)
        case let .pending(child): Self.feed(child.finalHash(), into: &hash)
        }
      }
      return hash
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = kind {} else { kind = .object }
    return KeyedEncodingContainer(FingerprintKeyedContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = kind {
    } else {
      kind = .array
      items.reserveCapacity(4)
    }
    return FingerprintUnkeyedContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    FingerprintSingleValueContainer(encoder: self)
  }

  func addEntry(_ key: String, _ hash: UInt64) {
    objectCount += 1
    objectSum &+= Self.entry(key: key, value: hash)
  }

  func addPendingEntry(_ key: String, _ child: FingerprintEncoder) {
    objectCount += 1
    pendingEntries.append((key, child))
  }
}

// MARK: - Unordered collections

/// A collection whose `Codable` form lists elements in hash order, which changes from one process to the next.
protocol FingerprintUnordered {
  /// The order-independent hash of the collection, or `nil` to hash its `Codable` form.
  func fingerprintUnordered(parent: FingerprintEncoder?, key: (any CodingKey)?) throws -> UInt64?
}

extension Set: FingerprintUnordered where Element: Encodable {
  func fingerprintUnordered(parent: FingerprintEncoder?, key: (any CodingKey)?) throws -> UInt64? {
    var sum: UInt64 = 0
    for element in self {
      sum &+= FingerprintEncoder.mix(try FingerprintEncoder.hash(of: element, parent: parent, key: key))
    }
    return FingerprintEncoder.unordered(tag: UInt8(ascii: "("), count: count, sum: sum)
  }
}

extension Dictionary: FingerprintUnordered where Key: Encodable, Value: Encodable {
  func fingerprintUnordered(parent: FingerprintEncoder?, key codingKey: (any CodingKey)?) throws -> UInt64? {
    // String, Int and CodingKeyRepresentable keys encode as a keyed container: already order-independent.
    if Key.self == String.self || Key.self == Int.self || Key.self is any CodingKeyRepresentable.Type {
      return nil
    }
    var sum: UInt64 = 0
    for (key, value) in self {
      let keyHash = try FingerprintEncoder.hash(of: key, parent: parent, key: codingKey)
      let valueHash = try FingerprintEncoder.hash(of: value, parent: parent, key: codingKey)
      sum &+= FingerprintEncoder.mix(keyHash &+ FingerprintEncoder.phi &* valueHash)
    }
    return FingerprintEncoder.unordered(tag: UInt8(ascii: "("), count: count, sum: sum)
  }
}

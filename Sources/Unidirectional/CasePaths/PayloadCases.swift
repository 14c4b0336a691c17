import Synchronization

/// The cases of an enum whose payload is exactly a `Value`, by tag: the only cases a case path made from a
/// constructor alone reads a payload from, so that it never reads memory as a type it does not hold.
///
/// Found once per pair of types from the runtime's field records (``EnumMetadata``), then shared and kept for the
/// life of the process: making a case path in a reducer's `body`, once per action, costs one lookup here.
@usableFromInline
final class PayloadCases: Sendable {
  /// Where a case keeps its payload.
  @usableFromInline
  enum Storage: UInt8, Sendable {
    /// Not a `Value`: a case path of `Value` never reads it.
    case other
    /// In the enum value itself.
    case inline
    /// In a box the enum value references (an `indirect` case).
    case indirect
  }

  /// What an extraction reads: trivial values, so that a case path holding them copies without reference
  /// counting. The shared instances are never released, so their storage outlives every case path.
  @usableFromInline let table: Table

  /// The metadata and the storage of each case, by tag.
  @usableFromInline
  struct Table: @unchecked Sendable {  // an immutable buffer
    @usableFromInline let metadata: EnumMetadata
    @usableFromInline let storage: UnsafePointer<Storage>
    @usableFromInline let count: UInt32

    /// Where the case with `tag` keeps a `Value` payload, or `.other`.
    @inlinable func storage(ofTag tag: UInt32) -> Storage { tag < count ? storage[Int(tag)] : .other }
  }

  /// Whether no case of the enum has a `Value` payload.
  let isEmpty: Bool

  private init(metadata: EnumMetadata, storage: [Storage]) {
    let buffer = UnsafeMutablePointer<Storage>.allocate(capacity: storage.count)
    buffer.initialize(from: storage, count: storage.count)
    self.table = Table(metadata: metadata, storage: UnsafePointer(buffer), count: UInt32(storage.count))
    self.isEmpty = !storage.contains { $0 != .other }
  }

  deinit { table.storage.deallocate() }

  /// The cases of `Root` with a `Value` payload, or nil when `Root` is not an enum (or the platform has no
  /// ``EnumMetadata``).
  static func of<Root, Value>(_: Root.Type, _: Value.Type) -> PayloadCases? {
    // This thread's copy first: no process-wide lock once the thread has seen the pair (see ``ThreadContext``).
    let context = ThreadContext.current(key: ThreadContext.key)
    if let found = context.pointee.payloadCases.entry(Root.self, Value.self) { return found }
    guard let found = processWide(Root.self, Value.self) else { return nil }
    context.pointee.payloadCases.insert(found, for: Root.self, Value.self)
    return found
  }

  /// The layouts from the process-wide table, worked out and kept there the first time any thread asks.
  private static func processWide<Root, Value>(_: Root.Type, _: Value.Type) -> PayloadCases? {
    if let found = cache.withLock({ $0.entry(Root.self, Value.self) }) { return found }
    guard let metadata = EnumMetadata(Root.self) else { return nil }
    let storage = (0..<metadata.caseCount).map { tag -> Storage in
      guard let payload = metadata.payload(ofTag: tag), isLayout(of: payload.type, a: Value.self) else {
        return .other
      }
      return payload.isIndirect ? .indirect : .inline
    }
    let cases = PayloadCases(metadata: metadata, storage: storage)
    cache.withLock { $0.insert(cases, for: Root.self, Value.self) }
    return cache.withLock { $0.entry(Root.self, Value.self) } ?? cases
  }

  private static let cache = Mutex(TypePairTable<PayloadCases>())

  /// Whether a payload of type `payload` is a `value` in memory: the same type, the same tuple with or without
  /// labels (`case row(id: ID, action: A)` and `(ID, A)`), or a one-element tuple around it (`case x(value: T)`).
  ///
  /// Not when a function type is part of it (directly, in a tuple or an optional): a function stored as a concrete
  /// type and read back as a generic one would be called with the wrong convention.
  static func isLayout(of payload: Any.Type, a value: Any.Type) -> Bool {
    guard !hasFunction(value) else { return false }
    if payload == value { return true }
    let payloadMetadata = unsafeBitCast(payload, to: UnsafeRawPointer.self)
    guard EnumMetadata.kind(of: payloadMetadata) == EnumMetadata.Kind.tuple else { return false }
    let payloadElements = tupleElements(payloadMetadata)
    if payloadElements.count == 1, payloadElements[0] == value { return true }
    let valueMetadata = unsafeBitCast(value, to: UnsafeRawPointer.self)
    guard EnumMetadata.kind(of: valueMetadata) == EnumMetadata.Kind.tuple else { return false }
    let valueElements = tupleElements(valueMetadata)
    return payloadElements.count == valueElements.count
      && zip(payloadElements, valueElements).allSatisfy { $0 == $1 }
  }

  private static func hasFunction(_ type: Any.Type) -> Bool {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    switch EnumMetadata.kind(of: metadata) {
    case EnumMetadata.Kind.function: return true
    case EnumMetadata.Kind.tuple: return tupleElements(metadata).contains { hasFunction($0) }
    case EnumMetadata.Kind.optional:
      // An optional's one generic argument follows its kind and descriptor.
      return hasFunction(metadata.load(fromByteOffset: 2 * MemoryLayout<UnsafeRawPointer>.size, as: Any.Type.self))
    default: return false
    }
  }

  /// A tuple's element types: after its kind, element count and labels, two words each (a type and an offset).
  /// The same types in the same order lay out at the same offsets, labels or not.
  static func tupleElements(_ metadata: UnsafeRawPointer) -> [Any.Type] {
    let word = MemoryLayout<UnsafeRawPointer>.size
    let count = metadata.load(fromByteOffset: word, as: Int.self)
    return (0..<count).map { metadata.load(fromByteOffset: 3 * word + $0 * 2 * word, as: Any.Type.self) }
  }
}

/// What the Swift runtime's metadata says about an enum type: its cases' tags, each payload's type, and the value
/// witnesses that read a case's tag and take its payload out — what a case path made from a case constructor alone
/// needs (``CasePath/init(_:fileID:line:)``).
///
/// The layouts read here are the runtime's own (`swift/ABI/Metadata.h`, `MetadataValues.h`), as swift-case-paths'
/// reflection read them before macros and as ``EnumCaseTag`` reads a tag. Only on 64-bit platforms without pointer
/// authentication (where function pointers in a witness table are signed): elsewhere `init` returns nil and case
/// paths fall back to `Mirror`.
@usableFromInline
struct EnumMetadata: @unchecked Sendable {
  /// The type's metadata record.
  @usableFromInline let pointer: UnsafeRawPointer

  /// The metadata of `type`, or nil when it is not an enum (or an optional), or the platform is not supported.
  init?(_ type: Any.Type) {
    guard Self.isSupported else { return nil }
    pointer = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard
      Self.kind(of: pointer) == Kind.enum || Self.kind(of: pointer) == Kind.optional,
      descriptor.load(fromByteOffset: 16, as: Int32.self) != 0  // it has field records
    else { return nil }
  }

  /// Whether this platform's metadata is read: 64-bit, and function pointers not signed.
  @usableFromInline static var isSupported: Bool {
    #if _pointerBitWidth(_64) && !_ptrauth(_arm64e)
      true
    #else
      false
    #endif
  }

  /// Metadata kinds (`MetadataKind.def`): "not a heap object" (0x200) with a number, or "non-type" (0x300).
  enum Kind {
    static let `enum`: UInt = 0x201
    static let optional: UInt = 0x202
    static let tuple: UInt = 0x301
    static let function: UInt = 0x302
  }

  static func kind(of metadata: UnsafeRawPointer) -> UInt { metadata.load(as: UInt.self) }

  @usableFromInline static var word: Int { MemoryLayout<UnsafeRawPointer>.size }

  /// The nominal type descriptor: flags, name, the number of payload and empty cases, the field records.
  private var descriptor: UnsafeRawPointer { pointer.load(fromByteOffset: Self.word, as: UnsafeRawPointer.self) }

  /// The number of cases: their tags are `0..<caseCount`, the cases with a payload first, then those without,
  /// each in declaration order — and a case whose payload has no bytes (an enum with one case, an empty struct)
  /// counts as one without.
  var caseCount: UInt32 {
    let payloadCases = descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0xFF_FFFF
    return payloadCases + descriptor.load(fromByteOffset: 24, as: UInt32.self)
  }

  // MARK: Value witnesses

  // An enum's value witness table adds three functions after the eight of every type, its size, stride, and its
  // flags and extra inhabitants (one word). Inlinable, so that a case path's extraction is specialized for its
  // types where it is made: generic, each call would look up the metadata of the types it uses.

  @inlinable var witnesses: UnsafeRawPointer { pointer.load(fromByteOffset: -Self.word, as: UnsafeRawPointer.self) }

  @usableFromInline typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  @usableFromInline typealias ProjectEnumData = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
  @usableFromInline typealias InjectEnumData =
    @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void

  /// The tag of `value`'s case.
  @inlinable
  func tag<Enum>(of value: Enum) -> UInt32 {
    let getEnumTag = witnesses.load(fromByteOffset: 11 * Self.word, as: GetEnumTag.self)
    return withUnsafePointer(to: value) { getEnumTag($0, pointer) }
  }

  /// A copy of the payload of `root`, whose case has the tag `tag`, as a `Value`: the caller has checked that the
  /// case's payload is a `Value` (``payload(ofTag:)``).
  @inlinable
  func payload<Root, Value>(of root: Root, tag: UInt32, indirect: Bool, as _: Value.Type) -> Value {
    withUnsafeTemporaryAllocation(of: Root.self, capacity: 1) { buffer in
      let enumValue = buffer.baseAddress!
      let raw = UnsafeMutableRawPointer(enumValue)
      // A payload without bytes is laid out as a case without payload: there is nothing to take out.
      if MemoryLayout<Value>.size == 0, !indirect { return raw.bindMemory(to: Value.self, capacity: 1).move() }
      enumValue.initialize(to: root)
      // In place, the enum value becomes its payload (spare bits holding the tag are cleared).
      let project = witnesses.load(fromByteOffset: 12 * Self.word, as: ProjectEnumData.self)
      project(raw, pointer)
      guard indirect else { return raw.bindMemory(to: Value.self, capacity: 1).move() }
      // The payload of an indirect case is a reference to a box: a heap object's header, then the value.
      let header = 2 * Self.word
      let alignment = MemoryLayout<Value>.alignment
      let box = raw.load(as: UnsafeRawPointer.self)
      let value = box.load(fromByteOffset: (header + alignment - 1) / alignment * alignment, as: Value.self)
      // Make it the enum value again, so destroying it releases the box.
      let inject = witnesses.load(fromByteOffset: 13 * Self.word, as: InjectEnumData.self)
      inject(raw, tag, pointer)
      enumValue.deinitialize(count: 1)
      return value
    }
  }

  // MARK: Field records

  /// The payload type of the case with `tag` (nil for a case without one), and whether the case is `indirect`.
  ///
  /// The field records are in the order of the tags (the runtime's `Mirror` reads them by tag too).
  func payload(ofTag tag: UInt32) -> (type: Any.Type, isIndirect: Bool)? {
    guard tag < caseCount else { return nil }
    let fields = Self.relative(descriptor + 16)
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let record = fields + 16 + Int(tag) * recordSize
    let isIndirect = record.load(as: UInt32.self) & 1 != 0
    guard record.load(fromByteOffset: 4, as: Int32.self) != 0 else { return nil }
    let name = Self.relative(record + 4).assumingMemoryBound(to: UInt8.self)
    // A generic enum's arguments follow its kind and descriptor.
    let isGeneric = descriptor.load(as: UInt32.self) & 0x80 != 0
    guard
      // The standard library's entry point to the runtime's demangler, which resolves symbolic references.
      let type = _getTypeByMangledNameInContext(
        name, UInt(Self.mangledNameLength(name)), genericContext: descriptor,
        genericArguments: isGeneric ? pointer + 2 * Self.word : nil)
    else { return nil }
    return (type, isIndirect)
  }

  /// The name of the case with `tag`, as `Mirror` labels it.
  func caseName(ofTag tag: UInt32) -> String? {
    guard tag < caseCount else { return nil }
    let fields = Self.relative(descriptor + 16)
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let record = fields + 16 + Int(tag) * recordSize
    guard record.load(fromByteOffset: 8, as: Int32.self) != 0 else { return nil }
    return String(cString: Self.relative(record + 8).assumingMemoryBound(to: CChar.self))
  }

  /// The address a 32-bit relative pointer at `address` points to.
  private static func relative(_ address: UnsafeRawPointer) -> UnsafeRawPointer {
    address + Int(address.load(as: Int32.self))
  }

  /// The length of a mangled name, whose symbolic references may hold zero bytes (`docs/ABI/Mangling.rst`).
  private static func mangledNameLength(_ start: UnsafePointer<UInt8>) -> Int {
    var cursor = start
    while true {
      switch cursor.pointee {
      case 0: return cursor - start
      case 0x01...0x17: cursor += 5  // a relative symbolic reference: a byte, then 32 bits
      case 0x18...0x1F: cursor += 1 + word  // an absolute one: a byte, then a pointer
      default: cursor += 1
      }
    }
  }
}

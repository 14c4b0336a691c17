/// The case of an enum value, as the Swift runtime numbers it (payload cases first, in declaration order, then the
/// cases without a payload).
///
/// Read through the type's value witness table (`getEnumTag`), as TCA's and swift-case-paths' enum reflection do:
/// a few nanoseconds, where `Mirror` takes microseconds. Used only to rule a case out quickly; what a value holds is
/// still read by `Mirror`. Where function pointers are signed (arm64e) there is no tag, and callers use `Mirror`.
enum EnumCaseTag {
  /// The tag of `value`'s case, or nil when `Enum` is not an enum.
  static func of<Enum>(_ value: Enum) -> UInt32? {
    #if _ptrauth(_arm64e)
      return nil
    #else
      let metadata = unsafeBitCast(Enum.self as Any.Type, to: UnsafeRawPointer.self)
      // MetadataKind: enum 0x201, optional 0x202 (1 and 2 with the "not a heap object" bit 0x200).
      let kind = metadata.load(as: UInt.self)
      guard kind == 0x201 || kind == 0x202 else { return nil }
      // The value witness table is the word before the metadata; an enum's adds `getEnumTag` after the eight
      // functions, size, stride and the flags/extra inhabitants word.
      let word = MemoryLayout<UnsafeRawPointer>.size
      let witnesses = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
      typealias GetEnumTag = @convention(c) (_ value: UnsafeRawPointer, _ metadata: UnsafeRawPointer) -> UInt32
      let getEnumTag = witnesses.load(fromByteOffset: 11 * word, as: GetEnumTag.self)
      return withUnsafePointer(to: value) { getEnumTag($0, metadata) }
    #endif
  }

  /// The tag of the case `example` makes a value of, computed once per enum type (making the example can cost
  /// more than a lookup: a generic key path, an allocation).
  static func of<Enum>(caseOf example: () -> Enum) -> UInt32? {
    let type = ObjectIdentifier(Enum.self)
    let context = ThreadContext.current(key: ThreadContext.key)
    if let tag = context.pointee.enumTags[type] { return tag }
    let tag = tags.withLock({ $0[type] }) ?? of(example())
    // `.some`: a type with no tag (not an enum) is kept too, not removed by assigning nil.
    tags.withLock { $0[type] = .some(tag) }
    context.pointee.enumTags[type] = .some(tag)
    return tag
  }

  private static let tags = LockIsolated<[ObjectIdentifier: UInt32?]>([:])
}

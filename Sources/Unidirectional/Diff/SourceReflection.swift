/// What a writer of Swift source needs to know about a value's type that `Mirror` does not say: which stored
/// properties of a struct are `var` (an assignment to a `let` does not compile), and the name of an enum value's
/// case even when the enum describes itself (`String(describing:)` would give its description).
///
/// ```swift
/// SourceReflection.variableFields(of: Todo.self)   // ["title", "isDone"]: `let id` is left out
/// SourceReflection.caseName(of: Filter.completed)   // "completed"
/// ```
///
/// Read from the runtime's field records (`swift/RemoteInspection/Records.h`), as ``EnumMetadata`` reads them;
/// nil where they are not read (see ``EnumMetadata/isSupported``).
package enum SourceReflection {
  /// The names of the stored properties of the struct `type` declared `var`, or nil when `type` is not a struct.
  package static func variableFields(of type: Any.Type) -> Set<String>? {
    cache.value(for: type) { fields(of: type) }
  }

  /// The name of the case of `value`, an enum value (not an optional); nil for any other value.
  package static func caseName(of value: Any) -> String? {
    guard let metadata = EnumMetadata(type(of: value)),
      EnumMetadata.kind(of: metadata.pointer) == EnumMetadata.Kind.enum
    else { return nil }
    func tag<Enum>(_ value: Enum) -> UInt32 { metadata.tag(of: value) }
    return metadata.caseName(ofTag: _openExistential(value, do: tag))
  }

  private static let cache = TypeCache<Set<String>?>()

  private static func fields(of type: Any.Type) -> Set<String>? {
    guard EnumMetadata.isSupported else { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard EnumMetadata.kind(of: metadata) == MetadataKind.struct else { return nil }
    let descriptor = metadata.load(fromByteOffset: EnumMetadata.word, as: UnsafeRawPointer.self)
    guard descriptor.load(fromByteOffset: 16, as: Int32.self) != 0 else { return [] }
    let fields = relative(descriptor + 16)
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    var names: Set<String> = []
    for index in 0..<count {
      let record = fields + 16 + index * recordSize
      // FieldRecordFlags: IsIndirectCase 0x1, IsVar 0x2, IsArtificial 0x4.
      let flags = record.load(as: UInt32.self)
      guard flags & 0x2 != 0, record.load(fromByteOffset: 8, as: Int32.self) != 0 else { continue }
      names.insert(String(cString: relative(record + 8).assumingMemoryBound(to: CChar.self)))
    }
    return names
  }

  private static func relative(_ address: UnsafeRawPointer) -> UnsafeRawPointer {
    address + Int(address.load(as: Int32.self))
  }
}

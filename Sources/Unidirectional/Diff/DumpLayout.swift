@_spi(Reflection) import Swift

/// What ``IncrementalDump`` knows of a type, worked out once: its size, whether its dump depends only on its bytes
/// (``DumpPurity``), how to load a value of it from memory, and — for a plain struct — its stored properties, which
/// it then walks in memory instead of reflecting the value with `Mirror`.
///
/// ```swift
/// let layout = DumpLayout.of(Counter.State.self)
/// layout.fields?.map(\.label)    // ["count", "fact"]
/// ```
///
/// A plain struct: not rendered by a protocol of the dump's or a custom `Mirror`, not one of the dump's primitives,
/// and holding no class reference or existential directly (a `weak` or `unowned` property would be one, and is read
/// only through `Mirror`). Its fields come from the runtime's field records, as `Mirror`'s children do, in the same
/// order and with the same labels.
final class DumpLayout: @unchecked Sendable {  // immutable once made
  /// A stored property of a plain struct.
  struct Field {
    /// Its label as the dump shows it (a property wrapper's storage, `_destination`, as `destination`).
    let label: String
    /// Where it is in the struct's memory.
    let offset: Int
    let layout: DumpLayout
  }

  let type: Any.Type
  let size: Int
  let isPure: Bool
  /// The stored properties of a plain struct; nil for any other type.
  let fields: [Field]?
  /// The first line of a plain struct's multi-line dump: `Name(`.
  let open: String
  /// The dump of a value of one of the standard library's numbers, `Bool` or `String`, read in place: what
  /// ``DumpBuilder/primitive(_:)`` makes of it, without its casts (a dozen tried on an `Any`, thousands of
  /// instructions). Nil for other types.
  let leaf: ((UnsafeRawPointer) -> String)?
  private let loadValue: (UnsafeRawPointer) -> Any

  private init(type: Any.Type) {
    self.type = type
    size = Self.size(of: type)
    isPure = DumpPurity.isPure(type)
    loadValue = Self.loader(for: type)
    leaf = Self.leafRendering(of: type)
    let fields = Self.plainStructFields(of: type)
    self.fields = fields
    open = fields == nil ? "" : typeName(type) + "("
  }

  private static let cache = TypeCache<DumpLayout>()

  /// The layout of `type`.
  static func of(_ type: Any.Type) -> DumpLayout {
    cache.value(for: type) { DumpLayout(type: type) }
  }

  /// A copy of the value of this type at `pointer`, as the `Any` a `Mirror` child would hold.
  func load(from pointer: UnsafeRawPointer) -> Any {
    loadValue(pointer)
  }

  /// The types of a struct's stored properties, in order; nil when the runtime cannot list them.
  static func storedPropertyTypes(of type: Any.Type) -> [Any.Type]? {
    var types: [Any.Type] = []
    let listed = _forEachField(of: type) { _, _, fieldType, _ in
      types.append(fieldType)
      return true
    }
    return listed ? types : nil
  }

  private static func plainStructFields(of type: Any.Type) -> [Field]? {
    guard EnumMetadata.kind(of: unsafeBitCast(type, to: UnsafeRawPointer.self)) == MetadataKind.struct,
      !(type is any CustomDumpStringConvertible.Type), !(type is any CustomDumpRepresentable.Type),
      !(type is any CustomReflectable.Type), !DumpPurity.isPrimitive(type), type != AnyHashable.self
    else { return nil }
    var fields: [(label: String, offset: Int, type: Any.Type)] = []
    var loadable = true
    let listed = _forEachField(of: type) { name, offset, fieldType, _ in
      guard Self.isLoadable(fieldType) else {
        loadable = false
        return false
      }
      var label = String(cString: name)
      if label.hasPrefix("_"), fieldType is any WrappedPropertyDumping.Type { label.removeFirst() }
      fields.append((label, offset, fieldType))
      return true
    }
    guard listed, loadable else { return nil }
    return fields.map { Field(label: $0.label, offset: $0.offset, layout: .of($0.type)) }
  }

  /// Whether a stored property of `type` can be read as a plain value of its type: not a class reference or an
  /// existential, which a `weak` or `unowned` property would be (their storage is not a plain reference), nor an
  /// optional of one.
  private static func isLoadable(_ type: Any.Type) -> Bool {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    switch EnumMetadata.kind(of: metadata) {
    case MetadataKind.struct, EnumMetadata.Kind.enum, EnumMetadata.Kind.tuple, EnumMetadata.Kind.function,
      MetadataKind.metatype, MetadataKind.existentialMetatype:
      return true
    case EnumMetadata.Kind.optional:
      // An optional's one generic argument follows its kind and descriptor.
      return isLoadable(metadata.load(fromByteOffset: 2 * MemoryLayout<UnsafeRawPointer>.size, as: Any.Type.self))
    default:
      return false
    }
  }

  private static func leafRendering(of type: Any.Type) -> ((UnsafeRawPointer) -> String)? {
    // The protocols `customDump` tries before primitives (a program may conform these types to them).
    guard !(type is any CustomDumpStringConvertible.Type), !(type is any CustomDumpRepresentable.Type) else {
      return nil
    }
    // `description` is what `String(describing:)` gives for these types, without its casts.
    switch type {
    case is String.Type: return { DumpBuilder.quoted($0.assumingMemoryBound(to: String.self).pointee) }
    case is Bool.Type: return { $0.assumingMemoryBound(to: Bool.self).pointee ? "true" : "false" }
    case is Int.Type: return { $0.assumingMemoryBound(to: Int.self).pointee.description }
    case is Int8.Type: return { $0.assumingMemoryBound(to: Int8.self).pointee.description }
    case is Int16.Type: return { $0.assumingMemoryBound(to: Int16.self).pointee.description }
    case is Int32.Type: return { $0.assumingMemoryBound(to: Int32.self).pointee.description }
    case is Int64.Type: return { $0.assumingMemoryBound(to: Int64.self).pointee.description }
    case is UInt.Type: return { $0.assumingMemoryBound(to: UInt.self).pointee.description }
    case is UInt8.Type: return { $0.assumingMemoryBound(to: UInt8.self).pointee.description }
    case is UInt16.Type: return { $0.assumingMemoryBound(to: UInt16.self).pointee.description }
    case is UInt32.Type: return { $0.assumingMemoryBound(to: UInt32.self).pointee.description }
    case is UInt64.Type: return { $0.assumingMemoryBound(to: UInt64.self).pointee.description }
    case is Double.Type: return { $0.assumingMemoryBound(to: Double.self).pointee.description }
    case is Float.Type: return { $0.assumingMemoryBound(to: Float.self).pointee.description }
    default: return nil
    }
  }

  private static func size(of type: Any.Type) -> Int {
    _openExistential(type, do: layoutSize)
  }

  private static func loader(for type: Any.Type) -> (UnsafeRawPointer) -> Any {
    _openExistential(type, do: valueLoader)
  }
}

private func layoutSize<T>(_: T.Type) -> Int { MemoryLayout<T>.size }

private func valueLoader<T>(_: T.Type) -> (UnsafeRawPointer) -> Any {
  { $0.assumingMemoryBound(to: T.self).pointee }
}

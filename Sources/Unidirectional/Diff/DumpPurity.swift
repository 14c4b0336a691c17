import Foundation

/// Whether a type's dump depends only on its values' bytes: two values of the type stored in the same bytes dump
/// alike, now and later. Then a part of a state in the same bytes as the part already dumped need not be dumped
/// again (see ``IncrementalDump``).
///
/// ```swift
/// DumpPurity.isPure(Int.self)                  // true
/// DumpPurity.isPure([Todo].self)               // true when `Todo`'s fields are
/// DumpPurity.isPure(Shared<Int>.self)          // false: the same reference, a value that changes
/// ```
///
/// Pure: numbers, strings, dates and the dump's other primitives; structs, enums and tuples made of pure parts;
/// the standard library's collections and the library's own containers of pure elements (their storage is shared
/// by copies and changed only when not shared, so the same bytes hold the same elements). Not pure: classes,
/// existentials, functions, and anything that renders itself (``CustomDumpStringConvertible``,
/// ``CustomDumpRepresentable``, a custom `Mirror` or `description`), whose rendering may read anything.
enum DumpPurity {
  private static let cache = TypeCache<Bool>()

  /// Whether `type`'s dump depends only on the bytes of its values.
  static func isPure(_ type: Any.Type) -> Bool {
    if let known = cache.cachedValue(for: type) { return known }
    var visiting: [ObjectIdentifier] = []
    var assumed = false
    let pure = isPure(type, visiting: &visiting, assumed: &assumed)
    return cache.value(for: type) { pure }
  }

  /// `type`'s purity; `assumed` is set when it relied on a type being pure because its purity was being worked out
  /// further up (a recursive type: assumed pure, as nothing impure was found in it), so that only the outermost
  /// result is cached.
  private static func isPure(_ type: Any.Type, visiting: inout [ObjectIdentifier], assumed: inout Bool) -> Bool {
    if let known = cache.cachedValue(for: type) { return known }
    let id = ObjectIdentifier(type)
    if visiting.contains(id) {
      assumed = true
      return true
    }
    visiting.append(id)
    defer { visiting.removeLast() }
    var assumedHere = false
    let pure = Self.parts(of: type)?.allSatisfy { isPure($0, visiting: &visiting, assumed: &assumedHere) } ?? false
    if assumedHere {
      assumed = true
    } else {
      _ = cache.value(for: type) { pure }
    }
    return pure
  }

  /// The types whose purity makes `type` pure (none for a primitive), or nil when it is not pure whatever its parts.
  private static func parts(of type: Any.Type) -> [Any.Type]? {
    // In the order `customDump` tries them (``DumpKind``).
    if type is any CustomDumpStringConvertible.Type { return nil }
    if let container = type as? any DumpComponents.Type { return container.dumpComponentTypes }
    if type is any CustomDumpRepresentable.Type { return nil }
    if isPrimitive(type) { return [] }
    if type == AnyHashable.self || type is any CustomReflectable.Type { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    switch EnumMetadata.kind(of: metadata) {
    case MetadataKind.struct:
      return DumpLayout.storedPropertyTypes(of: type)
    case EnumMetadata.Kind.enum:
      // A case without payload is dumped with `String(describing:)`, which a type may answer itself.
      if type is any CustomStringConvertible.Type || type is any TextOutputStreamable.Type { return nil }
      guard let enumMetadata = EnumMetadata(type) else { return nil }
      return (0..<enumMetadata.caseCount).compactMap { enumMetadata.payload(ofTag: $0)?.type }
    case EnumMetadata.Kind.tuple:
      return PayloadCases.tupleElements(metadata)
    case MetadataKind.metatype, MetadataKind.existentialMetatype:
      return []
    default:
      return nil
    }
  }

  /// Whether `customDump` renders values of `type` as one of its primitives (``DumpBuilder/primitive(_:)``).
  static func isPrimitive(_ type: Any.Type) -> Bool {
    type == String.self || type == Substring.self || type == Character.self || type == Bool.self
      || type is any BinaryInteger.Type || type == Decimal.self || type is any FloatingPoint.Type
      || type == Duration.self || type == Date.self || type == UUID.self || type == URL.self || type == Data.self
  }
}

/// The runtime's metadata kinds (`MetadataKind.def`) the dump tells apart, besides ``EnumMetadata/Kind``'s.
enum MetadataKind {
  static let `struct`: UInt = 0x200
  static let existential: UInt = 0x303
  static let metatype: UInt = 0x304
  static let existentialMetatype: UInt = 0x306
}

/// A container whose dump is its parts' dumps: pure when they are (see ``DumpPurity``).
protocol DumpComponents {
  /// The types of the values its dump is made of.
  static var dumpComponentTypes: [Any.Type] { get }
}

extension Optional: DumpComponents {
  static var dumpComponentTypes: [Any.Type] { [Wrapped.self] }
}

extension Array: DumpComponents {
  static var dumpComponentTypes: [Any.Type] { [Element.self] }
}

extension ContiguousArray: DumpComponents {
  static var dumpComponentTypes: [Any.Type] { [Element.self] }
}

extension ArraySlice: DumpComponents {
  static var dumpComponentTypes: [Any.Type] { [Element.self] }
}

extension Set: DumpComponents {
  static var dumpComponentTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: DumpComponents {
  static var dumpComponentTypes: [Any.Type] { [Key.self, Value.self] }
}

extension IdentifiedArray: DumpComponents {
  static var dumpComponentTypes: [Any.Type] { [Element.self] }
}

extension StackState: DumpComponents {
  static var dumpComponentTypes: [Any.Type] { [Element.self] }
}

extension PresentationState: DumpComponents {
  static var dumpComponentTypes: [Any.Type] { [State.self] }
}

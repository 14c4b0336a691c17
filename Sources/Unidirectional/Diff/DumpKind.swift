/// Which of the dump's renderings a type gets, worked out once per type: trying each of the casts `customDump` makes
/// (its two protocols, a dozen primitive types) costs several thousand instructions when they all fail, as they do
/// for every struct and enum in a state.
///
/// ```swift
/// DumpKind.of(42)           // .primitive
/// DumpKind.of(Counter())    // .reflected: walked with Mirror
/// ```
enum DumpKind: Sendable {
  /// Conforms to ``CustomDumpStringConvertible``.
  case custom
  /// Conforms to ``CustomDumpRepresentable``.
  case representable
  /// A string, number, date, UUID, URL, data, metatype … (``DumpBuilder/primitive(_:)``).
  case primitive
  /// An `AnyHashable`: dumped as its base.
  case anyHashable
  /// Everything else, walked with `Mirror`.
  case reflected

  private static let cache = TypeCache<DumpKind>()

  /// The rendering `value`'s type gets.
  static func of(_ value: Any) -> DumpKind {
    let type = type(of: value)
    // Casts look inside these two, so what they are depends on the value they hold, not on their type: an optional
    // is walked (its wrapped value gets its own kind), an `AnyHashable` dumped as its base. An optional type is
    // recognized once (a conformance lookup per value cost more than the cache's lookup), before any cast.
    if type == AnyHashable.self { return .anyHashable }
    return cache.value(for: type) {
      if type is any OptionalDumping.Type { return .reflected }
      if value is any CustomDumpStringConvertible { return .custom }
      if value is any CustomDumpRepresentable { return .representable }
      if DumpBuilder.primitive(value) != nil { return .primitive }
      return .reflected
    }
  }
}

/// Marks `Optional`, whatever it wraps.
private protocol OptionalDumping {}

extension Optional: OptionalDumping {}

import Synchronization

/// The dump of each case without payload of an enum type (`Counter.Action.incrementTapped`), worked out once per
/// case and kept: dumping one with `Mirror` — the mirror, its casts, the case's name through `String(describing:)` —
/// cost thousands of instructions, and a printed action is very often such a case.
///
/// ```swift
/// PayloadlessCaseDumps.text(of: Counter.Action.incrementTapped)   // "Counter.Action.incrementTapped"
/// PayloadlessCaseDumps.text(of: Counter.Action.set(3))            // nil: a case with a payload
/// ```
///
/// The case is read from the value's tag (``EnumMetadata``). Only for enums that do not describe themselves (not
/// `CustomStringConvertible` or `TextOutputStreamable`, which `String(describing:)` would ask) and have no custom
/// `Mirror`; other values get nil, and ``DumpBuilder`` reflects them.
final class PayloadlessCaseDumps: Sendable {
  private let metadata: EnumMetadata
  /// By tag: the case's dump, or nil for a case with a payload.
  private let texts = Mutex<[UInt32: String?]>([:])

  private init(metadata: EnumMetadata) {
    self.metadata = metadata
  }

  private static let cache = TypeCache<PayloadlessCaseDumps?>()

  /// The dump of `value` if it is a case without payload of an enum that qualifies, else nil.
  static func text(of value: Any) -> String? {
    let type = type(of: value)
    guard EnumMetadata.kind(of: unsafeBitCast(type, to: UnsafeRawPointer.self)) == EnumMetadata.Kind.enum,
      let cases = cache.value(for: type, compute: { make(for: type) })
    else { return nil }
    let tag = cases.tag(of: value)
    if let known = cases.texts.withLock({ $0[tag] }) { return known }
    let text: String? =
      cases.metadata.payload(ofTag: tag) == nil ? "\(typeName(type)).\(String(describing: value))" : nil
    cases.texts.withLock { $0[tag] = text }
    return text
  }

  /// The tag of `value`'s case.
  private func tag(of value: Any) -> UInt32 {
    func tag<Enum>(_ value: Enum) -> UInt32 { metadata.tag(of: value) }
    return _openExistential(value, do: tag)
  }

  private static func make(for type: Any.Type) -> PayloadlessCaseDumps? {
    guard !(type is any CustomStringConvertible.Type), !(type is any TextOutputStreamable.Type),
      !(type is any CustomReflectable.Type), let metadata = EnumMetadata(type)
    else { return nil }
    return PayloadlessCaseDumps(metadata: metadata)
  }
}

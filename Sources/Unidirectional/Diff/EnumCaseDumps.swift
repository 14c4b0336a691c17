import Synchronization

/// How ``DumpBuilder`` dumps the cases of an enum type without `Mirror`, worked out once per case and kept: dumping
/// a case with `Mirror` — a mirror for the value and one for its payload, their children collections, casts, the
/// case's name through `String(describing:)` — costs tens of thousands of instructions, and a printed action is an
/// enum value, often cases within cases (`.child(.child(.increment))`).
///
/// ```swift
/// EnumCaseDumps.text(of: Counter.Action.incrementTapped)   // "Counter.Action.incrementTapped"
/// var builder = DumpBuilder()
/// EnumCaseDumps.node(of: Counter.Action.set(3), depth: 0, builder: &builder)   // Counter.Action.set(3)
/// ```
///
/// The case is read from the value's tag and its payload taken out through the enum's value witnesses
/// (``EnumMetadata``); a case without payload dumps as `Type.case`, a case with one as `Type.case(payload)`, the
/// payload dumped by the builder — what the `Mirror` path makes of them. Only for enums that do not describe
/// themselves (not `CustomStringConvertible` or `TextOutputStreamable`, which `String(describing:)` would ask) and
/// have no custom `Mirror`, and not for a payload that is a tuple (its elements are labelled by `Mirror`); other
/// values get nil, and the builder reflects them.
final class EnumCaseDumps: Sendable {
  /// What one case dumps as.
  private enum Case {
    /// A case without payload: its whole dump.
    case text(String)
    /// A case with a payload of `type`: the first line of its dump (`Type.case(`).
    case payload(open: String, type: Any.Type, isIndirect: Bool)
    /// A case the builder reflects.
    case reflected
  }

  private let metadata: EnumMetadata
  private let name: String
  /// By tag.
  private let cases = Mutex<[UInt32: Case]>([:])

  private init(metadata: EnumMetadata, name: String) {
    self.metadata = metadata
    self.name = name
  }

  private static let cache = TypeCache<EnumCaseDumps?>()

  /// The dump of `value` if it is a case without payload of an enum that qualifies, else nil.
  static func text(of value: Any) -> String? {
    guard let (cases, tag) = lookUp(value), case let .text(text) = cases.dump(tag: tag, of: value) else { return nil }
    return text
  }

  /// The dump of `value` if it is a case of an enum that qualifies, its payload dumped by `builder` at `depth + 1`;
  /// else nil.
  static func node(of value: Any, depth: Int, builder: inout DumpBuilder) -> DumpNode? {
    guard let (cases, tag) = lookUp(value) else { return nil }
    switch cases.dump(tag: tag, of: value) {
    case let .text(text):
      return .leaf(text)
    case let .payload(open, type, isIndirect):
      let payload = cases.payload(of: value, tag: tag, type: type, isIndirect: isIndirect)
      let child = DumpChild(label: nil, key: ".0", node: builder.node(for: payload, depth: depth + 1))
      return .container(.enumPayload, open: open, close: ")", children: [child], inlineWhenPossible: true)
    case .reflected:
      return nil
    }
  }

  private static func lookUp(_ value: Any) -> (EnumCaseDumps, UInt32)? {
    let type = type(of: value)
    guard EnumMetadata.kind(of: unsafeBitCast(type, to: UnsafeRawPointer.self)) == EnumMetadata.Kind.enum,
      let cases = cache.value(for: type, compute: { make(for: type) })
    else { return nil }
    return (cases, cases.tag(of: value))
  }

  /// What the case with `tag` dumps as, worked out from `value` the first time.
  private func dump(tag: UInt32, of value: Any) -> Case {
    if let known = cases.withLock({ $0[tag] }) { return known }
    let found: Case
    if let payload = metadata.payload(ofTag: tag) {
      let isTuple =
        EnumMetadata.kind(of: unsafeBitCast(payload.type, to: UnsafeRawPointer.self))
        == EnumMetadata.Kind.tuple
      if isTuple {
        found = .reflected
      } else if let caseName = metadata.caseName(ofTag: tag) {
        found = .payload(open: "\(name).\(caseName)(", type: payload.type, isIndirect: payload.isIndirect)
      } else {
        found = .reflected
      }
    } else {
      found = .text("\(name).\(String(describing: value))")
    }
    cases.withLock { $0[tag] = found }
    return found
  }

  /// The tag of `value`'s case.
  private func tag(of value: Any) -> UInt32 {
    func tag<Enum>(_ value: Enum) -> UInt32 { metadata.tag(of: value) }
    return _openExistential(value, do: tag)
  }

  /// A copy of the payload of `value`, whose case has `tag` and a payload of `type`.
  private func payload(of value: Any, tag: UInt32, type: Any.Type, isIndirect: Bool) -> Any {
    func payload<Enum>(_ value: Enum) -> Any {
      func of<Payload>(_: Payload.Type) -> Any {
        metadata.payload(of: value, tag: tag, indirect: isIndirect, as: Payload.self)
      }
      return _openExistential(type, do: of)
    }
    return _openExistential(value, do: payload)
  }

  private static func make(for type: Any.Type) -> EnumCaseDumps? {
    guard !(type is any CustomStringConvertible.Type), !(type is any TextOutputStreamable.Type),
      !(type is any CustomReflectable.Type), let metadata = EnumMetadata(type)
    else { return nil }
    return EnumCaseDumps(metadata: metadata, name: typeName(type))
  }
}

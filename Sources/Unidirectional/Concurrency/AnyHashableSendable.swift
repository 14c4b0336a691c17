/// A type-erased hashable, sendable value: what `AnyHashable` is, for values that cross threads (a cancel id made
/// of other ids, a key in a shared dictionary). TCA's (swift-concurrency-extras') `AnyHashableSendable`.
///
/// ```swift
/// let id = AnyHashableSendable("upload")
/// id == AnyHashableSendable("upload")  // true
/// id == AnyHashableSendable(42)        // false
/// let ids: Set<AnyHashableSendable> = [1, "one", true]
/// ```
public struct AnyHashableSendable: Hashable, Sendable {
  /// The wrapped value.
  public let base: any Hashable & Sendable

  /// Wraps `base` (an `AnyHashableSendable` is not wrapped twice).
  public init(_ base: some Hashable & Sendable) {
    self.base = (base as? AnyHashableSendable)?.base ?? base
  }

  /// Equal when the wrapped values are, as `AnyHashable` compares them (`1 as Int` and `1 as UInt8` too).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(AnyHashable(base))
  }
}

extension AnyHashableSendable: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { String(describing: base) }
  public var debugDescription: String { "AnyHashableSendable(\(String(reflecting: base)))" }
}

extension AnyHashableSendable: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByStringLiteral
{
  public init(booleanLiteral value: Bool) { self.init(value) }
  public init(integerLiteral value: Int) { self.init(value) }
  public init(floatLiteral value: Double) { self.init(value) }
  public init(stringLiteral value: String) { self.init(value) }
}

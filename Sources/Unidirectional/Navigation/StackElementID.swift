/// Identifies an element of a ``StackState``: stable for the element's whole life on the stack, never reused by
/// the same generator.
///
/// Ids come from the store's ``StackElementIDGenerator`` (`\.stackElementID`): 0, 1, 2, … in the order elements are
/// pushed, so a test can name them with integer literals.
///
/// ```swift
/// await store.send(.pushDetail) { $0.path.append(Detail.State()) }      // gets #0
/// await store.send(.path(.element(id: 0, action: .closeTapped)))
/// await store.receive(.path(.popFrom(id: 0))) { $0.path.removeAll() }
/// ```
public struct StackElementID: Hashable, Comparable, Sendable, Codable, ExpressibleByIntegerLiteral,
  CustomStringConvertible, CustomDumpStringConvertible
{
  /// The position of this id in its generator's sequence.
  public var generation: Int

  /// The id `generation` of a generator's sequence.
  public init(generation: Int) {
    self.generation = generation
  }

  /// The id `value` of a generator's sequence: `0` is the first element pushed in a test.
  public init(integerLiteral value: Int) {
    self.init(generation: value)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.generation < rhs.generation }

  /// `#0`, `#1`, …
  public var description: String { "#\(generation)" }

  public var customDumpDescription: String { description }

  public init(from decoder: any Decoder) throws {
    self.init(generation: try decoder.singleValueContainer().decode(Int.self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(generation)
  }
}

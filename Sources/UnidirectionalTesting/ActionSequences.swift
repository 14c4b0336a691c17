/// Which generated action sequences ``exploreActions(_:generating:replaying:interleavings:reporter:fileID:filePath:line:column:store:check:)``
/// runs: `count` sequences of at most `length` steps, from generators seeded with `seed` and the sequence's number.
///
/// ```swift
/// await exploreActions(.random(seed: 7, sequences: 500, length: 12), generating: todoActions) { … }
/// ```
public struct ActionSequences: Sendable, Equatable, CustomStringConvertible {
  /// Seeds the sequences: the same seed runs the same sequences.
  public var seed: UInt64
  /// How many sequences run (fewer if one fails).
  public var count: Int
  /// The most steps a sequence takes (fewer when no choice is available).
  public var length: Int

  /// `sequences` random sequences of at most `length` steps.
  public static func random(seed: UInt64 = 0, sequences: Int = 100, length: Int = 20) -> Self {
    Self(seed: seed, count: sequences, length: length)
  }

  public var description: String { "random, seed \(seed), \(count) sequences of up to \(length) steps" }
}

/// What ``exploreActions(_:generating:replaying:interleavings:reporter:fileID:filePath:line:column:store:check:)``
/// ran and found.
///
/// ```swift
/// let report = await exploreActions(generating: cartActions, reporter: failures.reporter) { … }
/// report.failingSequence   // "0.2 2 1": pass it as `replaying:`
/// report.steps             // ["await store.send(.add(price: 25))", "await store.send(.applyCoupon)", …]
/// ```
public struct ActionExplorationReport: Sendable, Equatable {
  /// How many sequences ran (shrinking a failure not counted).
  public var sequencesRun: Int
  /// The failing sequence, shrunk, as the string to pass as `replaying:`; nil when every sequence passed.
  public var failingSequence: String?
  /// How many steps the failing sequence had taken when it failed, before shrinking.
  public var generatedLength: Int?
  /// The shrunk sequence's steps as Swift statements (`await store.send(.undo)`), ready for a regression test.
  public var steps: [String]
  /// What failed in the shrunk sequence.
  public var failures: [String]
}

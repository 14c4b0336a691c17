/// Gives random numbers from one injected generator, so a test can make them predictable: TCA's
/// `@Dependency(\.withRandomNumberGenerator)`.
///
/// ```swift
/// @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
/// let roll = withRandomNumberGenerator { Int.random(in: 1...6, using: &$0) }
///
/// // In a test, any seeded `RandomNumberGenerator & Sendable` of your own:
/// $0.withRandomNumberGenerator = WithRandomNumberGenerator(SeededGenerator(seed: 0))
/// ```
///
/// Calls are serialized: the generator is used by one caller at a time, from any thread.
public final class WithRandomNumberGenerator: Sendable {
  private let generator: LockIsolated<any RandomNumberGenerator & Sendable>

  /// Random numbers from `generator`.
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    self.generator = LockIsolated(generator)
  }

  /// A generator giving `numbers`, in order: the numbers a recorded session drew (a test written from an action log
  /// injects them), so that `Int.random(in:using:)` and the like give what they gave then. Drawing more reports a
  /// test failure naming how many there were, then gives numbers of a fixed pseudo-random sequence.
  ///
  /// ```swift
  /// $0.withRandomNumberGenerator = .sequence([0x9E37_79B9_7F4A_7C15, 42])
  /// ```
  public static func sequence(_ numbers: [UInt64]) -> WithRandomNumberGenerator {
    WithRandomNumberGenerator(
      NumberSequence(sequence: ValueSequence(numbers, use: "@Dependency(\\.withRandomNumberGenerator) drew")))
  }

  /// Runs `work` with the generator; keep it short, it holds the generator's lock.
  public func callAsFunction<R>(_ work: (inout any RandomNumberGenerator & Sendable) throws -> R) rethrows -> R {
    try generator.withLock { try work(&$0) }
  }
}

/// The numbers of ``WithRandomNumberGenerator/sequence(_:)``.
private struct NumberSequence: RandomNumberGenerator, Sendable {
  let sequence: ValueSequence<UInt64>

  mutating func next() -> UInt64 {
    sequence.next { SplitMix64.standIn(at: $0) }
  }
}

/// The test value: reports a test failure at each number asked for, then gives the system's.
private struct UnimplementedRandomNumberGenerator: RandomNumberGenerator, Sendable {
  mutating func next() -> UInt64 {
    reportIssue(
      """
      @Dependency(\\.withRandomNumberGenerator) was used without an override. Set it to a seeded generator, e.g. \
      WithRandomNumberGenerator(SeededGenerator(seed: 0)), in the test.
      """)
    var system = SystemRandomNumberGenerator()
    return system.next()
  }
}

private enum WithRandomNumberGeneratorKey: DependencyKey {
  static let liveValue = WithRandomNumberGenerator(SystemRandomNumberGenerator())
  static let testValue = WithRandomNumberGenerator(UnimplementedRandomNumberGenerator())
}

extension DependencyValues {
  /// Random numbers: the system's generator live and in previews; unimplemented in tests until overridden.
  public var withRandomNumberGenerator: WithRandomNumberGenerator {
    get { self[WithRandomNumberGeneratorKey.self] }
    set { self[WithRandomNumberGeneratorKey.self] = newValue }
  }
}

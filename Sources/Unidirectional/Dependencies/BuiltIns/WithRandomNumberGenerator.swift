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

  /// Runs `work` with the generator; keep it short, it holds the generator's lock.
  public func callAsFunction<R>(_ work: (inout any RandomNumberGenerator & Sendable) throws -> R) rethrows -> R {
    try generator.withLock { try work(&$0) }
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

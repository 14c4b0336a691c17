import Testing
import Unidirectional
import UnidirectionalTesting

// TCA's `@Dependency(\.withRandomNumberGenerator)`: random numbers from one injected generator, seeded in tests,
// unimplemented until overridden. Ported from swift-dependencies' `WithRandomNumberGeneratorDependencyTests`.

/// A linear congruential generator, as swift-dependencies' tests seed theirs.
private struct LCRNG: RandomNumberGenerator, Sendable {
  var seed: UInt64
  mutating func next() -> UInt64 {
    seed = 2_862_933_555_777_941_757 &* seed &+ 3_037_000_493
    return seed
  }
}

private struct Dice: Reducer {
  struct State: Equatable { var rolls: [Int] = [] }
  enum Action: Equatable, Sendable { case roll }
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.rolls.append(withRandomNumberGenerator { Int.random(in: 1...6, using: &$0) })
    return .none
  }
}

@MainActor
@Suite struct WithRandomNumberGeneratorTests {
  @Test func aSeededGeneratorGivesTheSameNumbersEachRun() async {
    func rolls() -> [Int] {
      let generator = WithRandomNumberGenerator(LCRNG(seed: 0))
      return (0..<5).map { _ in generator { Int.random(in: 1...6, using: &$0) } }
    }
    #expect(rolls() == rolls())
  }

  @Test func aFeatureRollsWithTheInjectedGenerator() async {
    var expected = LCRNG(seed: 0)
    let first = Int.random(in: 1...6, using: &expected)
    let second = Int.random(in: 1...6, using: &expected)
    let store = TestStore(initialState: Dice.State()) {
      Dice()
    } withDependencies: {
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(LCRNG(seed: 0))
    }
    await store.send(.roll) { $0.rolls = [first] }
    await store.send(.roll) { $0.rolls = [first, second] }
  }

  @Test func liveItIsTheSystemsGenerator() {
    let value = DependencyValues(context: .live).withRandomNumberGenerator { Int.random(in: 0..<10, using: &$0) }
    #expect((0..<10).contains(value))
  }

  @Test func unimplementedInATestUntilOverridden() {
    let issues = LockIsolated<[String]>([])
    withDependencies {
      $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
    } operation: {
      @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
      _ = withRandomNumberGenerator { $0.next() }
    }
    #expect(issues.value.count == 1)
    #expect(issues.value.first?.contains("withRandomNumberGenerator") == true)
  }
}

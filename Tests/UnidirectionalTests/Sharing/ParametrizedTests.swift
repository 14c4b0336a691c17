import Testing
@testable import Unidirectional

/// swift-sharing's `ParametrizedTests`, ported: each case of a parameterized test has its own shared values, so a
/// case never finds the value an earlier case (or one running in parallel) stored under the same key.
@Suite struct ParametrizedTests {
  @Test(arguments: 0...10)
  func eachCaseStartsFromItsOwnInitialValue(initialValue: Int) {
    @Shared(.inMemory("count")) var counter = initialValue
    #expect(counter == initialValue)
    $counter.withLock { $0 += 100 }
  }
}

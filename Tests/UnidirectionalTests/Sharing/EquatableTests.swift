import Foundation
import Testing
@testable import Unidirectional

/// swift-sharing's `EquatableTests` and TCA's `testEquatability_DifferentReference`, ported: shared values compare
/// by their values, whatever keeps them (a plain value, memory, defaults, a file) and however they were derived.
@Suite struct EquatableTests {
  @Test func plainValuesAreEqualWhenTheirValuesAre() {
    @Shared(value: 0) var lhs
    @Shared(value: 0) var rhs
    expectEqualityToFollowTheValues($lhs, $rhs)
  }

  @Test func aPersistedValueComparesWithAPlainOne() {
    @Shared(value: 0) var lhs
    @Shared(.inMemory("rhs")) var rhs = 0
    expectEqualityToFollowTheValues($lhs, $rhs)
  }

  @Test func readersComputedFromOneValueCompareByWhatTheyCompute() {
    @Shared(value: 0) var base: Int
    @SharedReader var lhs: Int
    @SharedReader var rhs: Int
    _lhs = $base.read { $0 * 2 }
    _rhs = $base.read { $0 * 3 }
    #expect(lhs == rhs)
    #expect($lhs == $rhs)

    $base.withLock { $0 += 1 }
    #expect(lhs != rhs)
    #expect($lhs != $rhs)
  }

  @Test func valuesKeptByEveryStrategyCompareByValue() {
    let count = Shared(value: 0)
    @Shared(.appStorage("count")) var appStorageCount = 0
    @Shared(.fileStorage(URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("count.json")))
    var fileStorageCount = 0
    @Shared(.inMemory("count")) var inMemoryCount = 0

    #expect(count == $appStorageCount)
    #expect($appStorageCount == $fileStorageCount)
    #expect($fileStorageCount == $inMemoryCount)
    #expect($inMemoryCount == count)
  }

  /// Two shared values, both 0: equal, unequal once one changes, equal again once the other does.
  private func expectEqualityToFollowTheValues(_ lhs: Shared<Int>, _ rhs: Shared<Int>) {
    #expect(lhs.wrappedValue == rhs.wrappedValue)
    #expect(lhs == rhs)

    lhs.withLock { $0 += 1 }
    #expect(lhs.wrappedValue != rhs.wrappedValue)
    #expect(lhs != rhs)

    rhs.withLock { $0 += 1 }
    #expect(lhs.wrappedValue == rhs.wrappedValue)
    #expect(lhs == rhs)
  }
}

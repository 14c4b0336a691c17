import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

/// Two tabs holding one value in user defaults (TCA's user-defaults case study; its own three tests are in
/// `SharedStateCaseStudyTests`): each test has defaults of its own, and a write to them from outside the store is,
/// like a file change, a state change to assert.
@MainActor
@Suite struct SharedStateUserDefaultsTests {
  @Test func aChangeIsWrittenToTheTestsOwnDefaults() async throws {
    let store = TestStore(initialState: SharedStateTabs.State(stats: .appStorage("stats"))) {
      SharedStateTabs()
    }
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.$stats.withLock { $0.increment() }
    }
    let defaults = DependencyValues.current.defaultAppStorage
    #expect(defaults !== UserDefaults.standard)
    let saved = try JSONDecoder().decode(Stats.self, from: try #require(defaults.data(forKey: "stats")))
    #expect(saved == Stats.counted(to: 1))
  }

  @Test func aWriteToTheDefaultsFromOutsideTheStoreIsAStateChangeToAssert() async throws {
    let store = TestStore(initialState: SharedStateTabs.State(stats: .appStorage("stats"))) {
      SharedStateTabs()
    }
    // Another part of the app writes the defaults directly.
    let defaults = DependencyValues.current.defaultAppStorage
    defaults.set(try JSONEncoder().encode(Stats.counted(to: 7)), forKey: "stats")

    await store.send(.counter(.isPrimeButtonTapped)) {
      $0.counter.$stats.withLock { $0 = Stats.counted(to: 7) }
      $0.counter.alert = AlertState(title: "👍 The number 7 is prime!")
    }
  }
}

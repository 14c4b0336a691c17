import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

/// TCA's `SharedStateUserDefaultsTests` (case studies), ported. TCA's case study keeps a plain `Int` count in user
/// defaults; here the tabs share the same `Stats` as the other two case studies, stored as JSON data (`Codable`
/// values are supported by `.appStorage`). Each test has defaults of its own, and a write to them from outside the
/// store is, like a file change, a state change to assert.
@MainActor
@Suite struct SharedStateUserDefaultsTests {
  @Test func tabSelection() async {
    let store = TestStore(initialState: SharedStateTabs.State(stats: .appStorage("stats"))) {
      SharedStateTabs()
    }
    await store.send(.selectTab(.profile)) {
      $0.currentTab = .profile
    }
    await store.send(.selectTab(.counter)) {
      $0.currentTab = .counter
    }
  }

  @Test func sharedCounts() async {
    let store = TestStore(initialState: SharedStateTabs.State(stats: .appStorage("stats"))) {
      SharedStateTabs()
    }
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.$stats.withLock { $0.increment() }
    }
    await store.send(.counter(.decrementButtonTapped)) {
      $0.counter.$stats.withLock { $0.decrement() }
    }
    await store.send(.profile(.resetStatsButtonTapped)) {
      $0.profile.$stats.withLock { $0 = Stats() }
    }
  }

  @Test func alert() async {
    let store = TestStore(initialState: SharedStateTabs.State(stats: .appStorage("stats"))) {
      SharedStateTabs()
    }
    await store.send(.counter(.isPrimeButtonTapped)) {
      $0.counter.alert = AlertState(title: "👎 The number 0 is not prime :(")
    }
  }

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

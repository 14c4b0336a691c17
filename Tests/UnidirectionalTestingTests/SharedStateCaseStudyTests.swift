import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

/// TCA's `SharedStateInMemoryTests`, `SharedStateFileStorageTests` and `SharedStateUserDefaultsTests` (case studies)
/// have the same three tests; ported once, they run for each place the tabs' `Stats` can live. A `@MainActor`
/// Swift Testing suite in Swift 6 mode, as TCA apps write theirs: a change to shared state is asserted in the
/// closure of the action that made it, through the projected value: `$0.counter.$stats.withLock { … }`.
///
/// (TCA's user-defaults case study keeps an `Int`; here it keeps the same `Stats`, as JSON data.)
@MainActor
@Suite struct SharedStateCaseStudyTests {
  enum Storage: String, CaseIterable, Sendable {
    case inMemory, fileStorage, userDefaults

    var initialState: SharedStateTabs.State {
      switch self {
      case .inMemory: SharedStateTabs.State(stats: .inMemory("stats"))
      case .fileStorage: SharedStateTabs.State(stats: .fileStorage(URL(fileURLWithPath: "/documents/stats.json")))
      case .userDefaults: SharedStateTabs.State(stats: .appStorage("stats"))
      }
    }
  }

  @Test(arguments: Storage.allCases)
  func tabSelection(storage: Storage) async {
    let store = TestStore(initialState: storage.initialState) {
      SharedStateTabs()
    }
    await store.send(.selectTab(.profile)) {
      $0.currentTab = .profile
    }
    await store.send(.selectTab(.counter)) {
      $0.currentTab = .counter
    }
  }

  @Test(arguments: Storage.allCases)
  func sharedCounts(storage: Storage) async {
    let store = TestStore(initialState: storage.initialState) {
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

  @Test(arguments: Storage.allCases)
  func alert(storage: Storage) async {
    let store = TestStore(initialState: storage.initialState) {
      SharedStateTabs()
    }
    await store.send(.counter(.isPrimeButtonTapped)) {
      $0.counter.alert = AlertState(title: "👎 The number 0 is not prime :(")
    }
  }
}

import Foundation
import Unidirectional

/// TCA's shared-state case studies (`02-SharedState-InMemory/FileStorage/UserDefaults.swift`), without their
/// views: two tabs, each with state of its own, that both declare the same shared `Stats`. A count changed in the
/// counter tab is what the profile tab shows, and resetting it in the profile tab resets the counter's.
///
/// The three case studies differ only in where `Stats` lives, so the key is given to the state here:
/// `SharedStateTabs.State(stats: .inMemory("stats"))`, `.fileStorage(url)`, `.appStorage("stats")`.
struct SharedStateTabs: Reducer {
  enum Tab: Equatable, Sendable { case counter, profile }

  struct State: Equatable, Sendable {
    var currentTab = Tab.counter
    var counter: CounterTab.State
    var profile: ProfileTab.State

    /// Each tab names the key on its own, as separate modules would: they share the value through the key.
    init(stats key: some SharedKey<Stats>) {
      counter = CounterTab.State(stats: Shared(wrappedValue: Stats(), key))
      profile = ProfileTab.State(stats: Shared(wrappedValue: Stats(), key))
    }
  }

  enum Action: Equatable, Sendable {
    case counter(CounterTab.Action)
    case profile(ProfileTab.Action)
    case selectTab(Tab)

    static let counterCase = CasePath(Action.counter) { if case let .counter(action) = $0 { action } else { nil } }
    static let profileCase = CasePath(Action.profile) { if case let .profile(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: Action.counterCase) { CounterTab() }
    Scope(state: \.profile, action: Action.profileCase) { ProfileTab() }
    Reduce { state, action in
      switch action {
      case .counter, .profile:
        return .none
      case let .selectTab(tab):
        state.currentTab = tab
        return .none
      }
    }
  }

  struct CounterTab: Reducer {
    struct State: Equatable, Sendable {
      @PresentationState var alert: AlertState<Action.Alert>?
      @Shared var stats: Stats
    }

    enum Action: Equatable, Sendable {
      case alert(PresentationAction<Alert>)
      case decrementButtonTapped
      case incrementButtonTapped
      case isPrimeButtonTapped

      enum Alert: Equatable, Sendable {}
      static let alertCase = CasePath(Action.alert) { if case let .alert(action) = $0 { action } else { nil } }
    }

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .alert:
          return .none
        case .decrementButtonTapped:
          state.$stats.withLock { $0.decrement() }
          return .none
        case .incrementButtonTapped:
          state.$stats.withLock { $0.increment() }
          return .none
        case .isPrimeButtonTapped:
          let count = state.stats.count
          state.alert = AlertState(
            title: isPrime(count) ? "👍 The number \(count) is prime!" : "👎 The number \(count) is not prime :(")
          return .none
        }
      }
      .ifLet(\.$alert, action: Action.alertCase)
    }
  }

  struct ProfileTab: Reducer {
    struct State: Equatable, Sendable {
      @Shared var stats: Stats
    }

    enum Action: Equatable, Sendable {
      case resetStatsButtonTapped
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .resetStatsButtonTapped:
        state.$stats.withLock { $0 = Stats() }
        return .none
      }
    }
  }
}

/// What the counter tab counts and the profile tab shows.
struct Stats: Codable, Equatable, Sendable {
  private(set) var count = 0
  private(set) var maxCount = 0
  private(set) var minCount = 0
  private(set) var numberOfCounts = 0

  mutating func increment() {
    count += 1
    numberOfCounts += 1
    maxCount = max(maxCount, count)
  }

  mutating func decrement() {
    count -= 1
    numberOfCounts += 1
    minCount = min(minCount, count)
  }
}

private func isPrime(_ number: Int) -> Bool {
  if number <= 1 { return false }
  if number <= 3 { return true }
  return !(2...Int(Double(number).squareRoot())).contains { number % $0 == 0 }
}

import Unidirectional
import UnidirectionalTesting
import XCTest

/// A search field: typing changes the query, and a change of query (only) clears results and starts a search.
private struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
    var searches: [String] = []
    var changes: [String] = []
    var keystrokes = 0
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case keystroke
    case clearTapped
    case searched(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      // A change made outside the modified reducer: onChange below does not see it.
      if case .clearTapped = action { state.query = "" }
      return .none
    }
    CombineReducers {
      BindingReducer()
      Reduce { state, action in
        switch action {
        case .keystroke:
          state.keystrokes += 1
          return .none
        case let .searched(query):
          state.results = [query.uppercased()]
          return .none
        case .binding, .clearTapped:
          return .none
        }
      }
    }
    .onChange(of: \.query) { oldValue, newValue in
      Reduce { state, _ in
        state.changes.append("\(oldValue)→\(newValue)")
        state.results = []
        return .send(.searched(newValue))
      }
    }
  }
}

/// What `onChange(of:)` does: runs its reducer after a change of the value by the reducer it modifies, with the
/// old and new values, on the changed state, merging effects; never for an unchanged value.
final class OnChangeReducerTests: XCTestCase {
  func testAChangeRunsTheReducerWithTheOldAndNewValues() async {
    let store = TestStore(initialState: Search.State()) { Search() }
    await store.send(.set(\.query, "sw")) {
      $0.query = "sw"
      $0.changes = ["→sw"]
    }
    await store.receive(.searched("sw")) { $0.results = ["SW"] }
    await store.send(.set(\.query, "swift")) {
      $0.query = "swift"
      $0.changes = ["→sw", "sw→swift"]
      $0.results = []
    }
    await store.receive(.searched("swift")) { $0.results = ["SWIFT"] }
  }

  func testNoChangeNoRun() async {
    let store = TestStore(initialState: Search.State(query: "swift")) { Search() }
    await store.send(.set(\.query, "swift"))
    await store.send(.keystroke) { $0.keystrokes = 1 }
  }

  func testAChangeMadeOutsideTheModifiedReducerIsNotSeen() async {
    let store = TestStore(initialState: Search.State(query: "swift")) { Search() }
    await store.send(.clearTapped) { $0.query = "" }
  }

  func testThePerformFormGetsTheOldValueAndTheChangedState() async {
    struct Settings: Reducer {
      struct State: Equatable {
        var isHapticsOn = false
        var log: [String] = []
      }
      enum Action: BindableAction, Equatable {
        case binding(BindingAction<State>)
        case saved(Bool)
      }
      var body: some ReducerOf<Self> {
        BindingReducer()
          .onChange(of: \.isHapticsOn) { oldValue, state in
            state.log.append("\(oldValue)→\(state.isHapticsOn)")
            return .send(.saved(state.isHapticsOn))
          }
        Reduce { state, action in
          if case let .saved(value) = action { state.log.append("saved \(value)") }
          return .none
        }
      }
    }
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(\.binding.isHapticsOn, true) {
      $0.isHapticsOn = true
      $0.log = ["false→true"]
    }
    await store.receive(.saved(true)) { $0.log.append("saved true") }
    await store.send(\.binding.isHapticsOn, true)
  }

  func testEffectsOfTheModifiedReducerAndOfTheChangeBothRun() async {
    struct Counter: Reducer {
      struct State: Equatable { var count = 0; var events: [String] = [] }
      enum Action: Equatable { case increment, incremented, changed }
      var body: some ReducerOf<Self> {
        Reduce { state, action in
          switch action {
          case .increment:
            state.count += 1
            return .send(.incremented)
          case .incremented:
            state.events.append("incremented")
            return .none
          case .changed:
            state.events.append("changed")
            return .none
          }
        }
        .onChange(of: \.count) { _, _ in
          Reduce { _, _ in .send(.changed) }
        }
      }
    }
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.increment) { $0.count = 1 }
    await store.receive(.incremented) { $0.events = ["incremented"] }
    await store.receive(.changed) { $0.events = ["incremented", "changed"] }
  }
}

import Testing
import Unidirectional
import UnidirectionalTesting

/// A search whose server answers short queries slowly (2 s) and longer ones fast (1 s). The bug: neither a new query
/// nor clearing the field cancels the search in flight, so typing a short query, then a longer one, then waiting shows
/// the short one's answer last — and typing, clearing, then waiting fills the cleared field with results (the
/// shortest sequence, which shrinking finds). The fix makes the search cancellable, in flight, and by the clear.
enum StaleSearchFixture {
  struct Search: Reducer {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
      var isSearching = false
    }
    enum Action: Equatable, Sendable {
      case queryChanged(String), answered(query: String, results: [String]), cleared
    }
    enum CancelID { case search }
    let isFixed: Bool
    @Dependency(\.clock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .queryChanged(query):
        state.query = query
        state.isSearching = true
        let search = Effect<Action>.run { [clock] send in
          try await clock.sleep(for: query.count < 2 ? .seconds(2) : .seconds(1))
          send(.answered(query: query, results: [query + " 1", query + " 2"]))
        }
        return isFixed ? search.cancellable(id: CancelID.search, cancelInFlight: true) : search
      case let .answered(_, results):
        state.isSearching = false
        state.results = results
        return .none
      case .cleared:
        state.query = ""
        state.results = []
        state.isSearching = false
        return .cancel(id: CancelID.search)
      }
    }
  }

  static var actions: ActionGenerator<Search.State, Search.Action> {
    ActionGenerator { _ in
      [
        ActionChoice(weight: 3, ["ab", "a", "abc"].map(Search.Action.queryChanged)),
        ActionChoice(weight: 1, .cleared),
        ActionChoice.advance(weight: 2, by: [.seconds(2), .seconds(1)]),
      ]
    }
  }

  static func explore(
    fixed: Bool, _ sequences: ActionSequences, replaying pin: String? = nil, reporter: TestReporter
  ) async -> ActionExplorationReport {
    await exploreActions(sequences, generating: actions, replaying: pin, reporter: reporter) {
      TestStore(initialState: Search.State()) {
        Search(isFixed: fixed)
      } withDependencies: {
        $0.clock = TestClock()
      }
    } check: { state, _ in
      #expect(
        state.isSearching || state.results.allSatisfy { $0.hasPrefix(state.query + " ") },
        "results \(state.results) for the query \"\(state.query)\"")
    }
  }
}

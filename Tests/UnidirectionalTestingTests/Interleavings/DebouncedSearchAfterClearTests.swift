import Testing
import Unidirectional
import UnidirectionalTesting

/// A debounce whose cancel races its timer: clearing the field cancels the debounce, but once the timer has fired
/// the search it started runs under an id of its own, and its answer fills the list the user just cleared.
@MainActor
struct DebouncedSearchAfterClearTests {
  struct Search: Reducer {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
    }
    enum Action: Equatable {
      case queryChanged(String)
      case search
      case response([String])
      case clearTapped
    }
    enum CancelID { case debounce, request }
    let clock: TestClock
    let search: @Sendable (String) async throws -> [String]
    /// The fix: the request is part of the debounced effect, so the one id clearing cancels covers the timer and
    /// the request it started.
    let debouncesTheRequest: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .queryChanged(query):
        state.query = query
        let debounced = debouncesTheRequest ? request(query) : .send(.search)
        return debounced.debounce(id: CancelID.debounce, for: .milliseconds(300), clock: clock)
      case .search:
        return request(state.query).cancellable(id: CancelID.request, cancelInFlight: true)
      case let .response(results):
        state.results = results
        return .none
      case .clearTapped:
        state.query = ""
        state.results = []
        return .cancel(id: CancelID.debounce)
      }
    }

    private func request(_ query: String) -> Effect<Action> {
      .run { [search] send in send(.response(try await search(query))) }
    }
  }

  /// Types "a", waits for the debounce to fire, clears the field: the list must stay empty.
  static func typeThenClear(fixed: Bool) async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search(clock: clock, search: { query in try await withRacing { ["\(query)!"] } }, debouncesTheRequest: fixed)
    }
    store.exhaustivity = .off
    await store.send(.queryChanged("a"))
    await clock.advance(by: .milliseconds(300))
    await store.send(.clearTapped)
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.results == [], "results for a query the user cleared")
  }

  @Test func theExplorerFindsTheAnswerFillingTheClearedList() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: TestFailures().reporter) {
      await Self.typeThenClear(fixed: false)
    }
    // Racing answers arrive as late as the test allows unless the explorer makes them early: the first schedule,
    // first in, first out, already lands the answer after the clear.
    #expect(report.failingSchedule == "")
    #expect(report.schedulesRun == 1)
    #expect(report.failures.contains { $0.contains("results for a query the user cleared") })
  }

  @Test func thePlainTestStoreRunsOneOrderAndMissesIt() async {
    // Outside an exploration `withRacing` answers at once: the search answers before the test clears the field.
    await Self.typeThenClear(fixed: false)
  }

  @Test func theFixedFeaturePassesEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.typeThenClear(fixed: true) }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
    #expect(report.schedulesRun > 1)
  }

  // MARK: What the library already handles

  /// A timer and the cancel of the debounce it belongs to, due at the same instant.
  struct Field: Reducer {
    struct State: Equatable {
      var searched: [String] = []
      var isCleared = false
    }
    enum Action: Equatable { case queryChanged(String), clearLater, clearTapped, search(String) }
    enum CancelID { case debounce }
    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .queryChanged(query):
        state.isCleared = false
        return .send(.search(query)).debounce(id: CancelID.debounce, for: .milliseconds(300), clock: clock)
      case .clearLater:
        return .run { [clock] send in
          try await clock.sleep(for: .milliseconds(300))
          send(.clearTapped)
        }
      case .clearTapped:
        state.isCleared = true
        return .cancel(id: CancelID.debounce)
      case let .search(query):
        state.searched.append(query)
        return .none
      }
    }
  }

  @Test func theLibrarysDebounceNeverDeliversAfterItsCancelEvenAtTheSameInstant() async {
    // Both sleepers wake at 300 ms and the explorer runs them in either order: when the cancel runs first, the
    // debounce's woken sleep throws and its action is never reduced.
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      let clock = TestClock()
      let store = TestStore(initialState: Field.State()) { Field(clock: clock) }
      store.exhaustivity = .off
      store.checkEveryState { state, action in
        if case .search = action { #expect(!state.isCleared, "a debounced search after its cancel") }
      }
      await store.send(.clearLater)
      await store.send(.queryChanged("a"))
      await clock.advance(by: .milliseconds(300))
      await store.finish()
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
    #expect(report.schedulesRun > 1, "both orders of the two sleepers ran")
  }
}

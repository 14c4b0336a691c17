import Testing
import Unidirectional
import UnidirectionalTesting

/// A stale search response overwrites a newer one: the answer to "a" arrives after the answer to "ab".
@MainActor
struct StaleSearchResponseTests {
  struct Search: Reducer {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
    }
    enum Action: Equatable {
      case queryChanged(String)
      case response([String])
    }
    enum CancelID { case search }
    let search: @Sendable (String) async throws -> [String]
    /// The fix: a new query cancels the search in flight, so its answer is never reduced.
    let cancelsTheSearchInFlight: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .queryChanged(query):
        state.query = query
        let effect = Effect<Action>.run { [search] send in send(.response(try await search(query))) }
        return cancelsTheSearchInFlight ? effect.cancellable(id: CancelID.search, cancelInFlight: true) : effect
      case let .response(results):
        state.results = results
        return .none
      }
    }
  }

  /// Types "a" then "ab"; the results must be the last query's, whatever order the answers arrive in.
  static func typeTwoLetters(fixed: Bool) async {
    let store = TestStore(initialState: Search.State()) {
      Search(search: { query in try await withRacing { ["\(query)!"] } }, cancelsTheSearchInFlight: fixed)
    }
    store.exhaustivity = .off
    await store.send(.queryChanged("a"))
    await store.send(.queryChanged("ab"))
    await store.skipReceivedActions(strict: false)
    #expect(store.state.results == ["ab!"])
  }

  @Test func theExplorerFindsTheStaleResponseWithOneDeviation() async throws {
    let failures = TestFailures()
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: failures.reporter) {
      await Self.typeTwoLetters(fixed: false)
    }
    #expect(report.failingSchedule != nil)
    #expect(report.failures.contains { $0.contains("(store.state.results → [\"a!\"]) == [\"ab!\"]") })
    #expect(failures.messages.count == 1)
    let schedule = report.failingSchedule ?? ""
    #expect(try Schedule(schedule).count == 1, "shrunk to one choice that differs from first in, first out")

    // The printed schedule replays the failure, every time.
    for _ in 0..<100 {
      let replay = await exploreInterleavings(replaying: schedule, reporter: TestFailures().reporter) {
        await Self.typeTwoLetters(fixed: false)
      }
      #expect(replay.failingSchedule == schedule)
    }
  }

  @Test func thePlainTestStoreRunsOneOrderAndMissesIt() async {
    // Outside an exploration `withRacing` answers at once: the one order a plain TestStore runs passes.
    await Self.typeTwoLetters(fixed: false)
  }

  @Test func theFixedFeaturePassesEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      await Self.typeTwoLetters(fixed: true)
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
    #expect(report.schedulesRun > 1)
  }
}

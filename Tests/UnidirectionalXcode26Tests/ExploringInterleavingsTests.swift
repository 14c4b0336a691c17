import Testing
import Unidirectional
import UnidirectionalTesting

/// The article "Exploring interleavings" in a target with Xcode 26's settings: its search explored, and an invariant
/// that reads the state's fields — those of a type isolated to the main actor, as every type here is — checked after
/// every action of every schedule.
struct ExploringInterleavingsTests {
  /// The corpus' stale search: a new query may cancel the search in flight.
  struct Search: Reducer {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
    }
    nonisolated enum Action: Equatable {
      case queryChanged(String)
      case response([String])
    }
    nonisolated enum CancelID { case search }
    let search: @Sendable (String) async throws -> [String]
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

  @Test func theFixedSearchPassesEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      await Self.typeTwoLetters(fixed: true)
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }

  @Test func theSearchWithoutTheFixFailsWithTheSameSchedule() async {
    let report = await exploreInterleavings(.exhaustive(), reporter: TestFailures().reporter) {
      await Self.typeTwoLetters(fixed: false)
    }
    #expect(report.failingSchedule == "4:1")
  }

  @Test func theTimerNeverTicksOnceStopped() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 2)) {
      let clock = TestClock()
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.clock = clock
      }
      store.exhaustivity = .off
      store.checkEveryState { state, action in
        #expect(state.isTimerOn || action != .tick, "a tick after the timer stopped")
      }
      store.checkEveryState { state, action in
        // A computed property, isolated to the main actor: before, a `@Sendable` check could not read it.
        #expect(state.mayTick || action != .tick)
      }
      await store.send(.startTimer)
      await clock.advance(by: .seconds(1))
      await store.send(.stopTimer)
      await clock.advance(by: .seconds(1))
      await store.skipReceivedActions(strict: false)
    }
    #expect(report.failingSchedule == nil)
  }
}

extension Counter.State {
  /// Read by an invariant as a test in another module reads a feature's state: isolated to the main actor, as
  /// everything in this target is (a stored property is not only within its own module).
  var mayTick: Bool { isTimerOn }
}

import Unidirectional
import UnidirectionalTesting
import XCTest

private struct Search: Reducer {
  struct State: Equatable, Sendable {
    var query = ""
    var searches: [String] = []
  }
  enum Action: Equatable, Sendable { case queryChanged(String), searched(String) }
  enum CancelID { case search }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .queryChanged(query):
      state.query = query
      return .run { send in send(.searched(query)) }
        .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
    case let .searched(query):
      state.searches.append(query)
      return .none
    }
  }
}

final class DebounceTests: XCTestCase {
  func testOnlyTheLastOfABurstRunsAfterTheQuietPeriod() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.queryChanged("s")) { $0.query = "s" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("sw")) { $0.query = "sw" }
    await clock.advance(by: .milliseconds(299))
    await clock.advance(by: .milliseconds(1))
    await store.receive(.searched("sw")) { $0.searches = ["sw"] }
    await store.finish()
  }
}

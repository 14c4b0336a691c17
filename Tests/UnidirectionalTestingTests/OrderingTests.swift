import Unidirectional
import UnidirectionalTesting
import XCTest

/// A scenario in the shape of TCA issue #277: concatenated effects whose actions send more actions.
private struct Cascade: Reducer {
  struct State: Equatable, Sendable { var log: [Action] = [] }

  enum Action: Equatable, Sendable {
    case start, first, firstChild, a, aChild, b, bAsync
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.log.append(action)
    switch action {
    case .start: return .merge(.send(.first), .concatenate(.send(.a), .send(.b)))
    case .first: return .send(.firstChild)
    case .a: return .send(.aChild)
    case .b: return .run { send in send(.bAsync) }
    case .firstChild, .aChild, .bAsync: return .none
    }
  }
}

final class OrderingTests: XCTestCase {
  private let expectedOrder: [Cascade.Action] = [.start, .first, .firstChild, .a, .aChild, .b, .bAsync]

  func testTheLiveStoreProcessesTheScenarioInTheDocumentedOrder() async {
    for _ in 0..<50 {
      let store = Store(initialState: Cascade.State()) { Cascade() }
      let states = store.states
      store.send(.start)
      var last: [Cascade.Action] = []
      for await state in states {
        last = state.log
        if last.count >= expectedOrder.count { break }
      }
      XCTAssertEqual(last, expectedOrder)
    }
  }

  func testTheTestStoreReceivesInExactlyTheSameOrder() async {
    let store = TestStore(initialState: Cascade.State()) { Cascade() }
    await store.send(.start) { $0.log = [.start] }
    var log: [Cascade.Action] = [.start]
    for action in expectedOrder.dropFirst() {
      log.append(action)
      await store.receive(action) { [log] in $0.log = log }
    }
    await store.finish()
  }
}

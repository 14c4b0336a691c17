import Unidirectional
import XCTest

private struct Parent: Reducer {
  struct State: Equatable, Sendable {
    var child = Child.State()
    var childChanges = 0
  }

  enum Action: Equatable, Sendable {
    case child(Child.Action)
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.childCase) { Child() }
    Reduce { state, action in
      state.childChanges += 1
      return .none
    }
  }
}

private struct Child: Reducer {
  struct State: Equatable, Sendable { var text = "" }
  enum Action: Equatable, Sendable { case append(String), appendLater(String) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .append(text):
      state.text += text
      return .none
    case let .appendLater(text):
      return .run { send in send(.append(text)) }
    }
  }
}

final class StoreScopeTests: XCTestCase {
  func testScopedStoreReadsChildStateAndSendsThroughTheParent() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    child.send(.append("a"))
    XCTAssertEqual(child.text, "a")
    XCTAssertEqual(store.childChanges, 1, "the parent reducer saw the embedded action")
  }

  func testScopedStoreEffectsFeedBackThroughTheParent() async {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    await child.send(.appendLater("b")).finish()
    XCTAssertEqual(store.child.text, "b")
    XCTAssertEqual(store.childChanges, 2)
  }

  func testScopedStatesStreamFollowsTheChild() async {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: Parent.Action.child)
    var iterator = child.states.makeAsyncIterator()
    _ = await iterator.next()
    child.send(.append("x"))
    let next = await iterator.next()
    XCTAssertEqual(next?.text, "x")
  }

  func testAChildStoreKeepsItsRootAlive() {
    var root: Store<Parent.State, Parent.Action>? = Store(initialState: Parent.State()) { Parent() }
    let child = root?.scope(state: \.child, action: Parent.Action.child)
    weak let weakRoot = root
    root = nil
    XCTAssertNotNil(weakRoot)
    child?.send(.append("still works"))
    XCTAssertEqual(child?.text, "still works")
  }
}

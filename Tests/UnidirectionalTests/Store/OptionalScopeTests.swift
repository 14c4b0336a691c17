import Unidirectional
import UnidirectionalTesting
import XCTest

final class OptionalScopeTests: XCTestCase {
  func testScopingToAnAbsentChildGivesNil() {
    let store = Store(initialState: Host.State()) { Host() }
    XCTAssertNil(store.scope(state: \.child, action: { .child(.presented($0)) }))
  }

  func testAScopedChildStoreDrivesThePresentedFeature() {
    let store = Store(initialState: Host.State()) { Host() }
    store.send(.present)
    guard let child = store.scope(state: \.child, action: { .child(.presented($0)) }) else {
      return XCTFail("the child is presented")
    }
    child.send(.increment)
    child.send(.increment)
    XCTAssertEqual(child.count, 2)
    XCTAssertEqual(store.child?.count, 2)
  }

  func testOnceTheChildIsGoneItsStoreRefusesActionsWithARuntimeIssue() {
    let issues = LockIsolated<[String]>([])
    let store = Store(initialState: Host.State()) { Host() }
    store.send(.present)
    guard let child = store.scope(state: \.child, action: { .child(.presented($0)) }) else {
      return XCTFail("the child is presented")
    }
    child.send(.increment)
    store.send(.child(.dismiss))
    withDependencies {
      $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
    } operation: {
      child.send(.increment)
    }
    XCTAssertEqual(issues.value.count, 1)
    XCTAssertTrue(issues.value[0].contains("after its state went away"), issues.value[0])
    XCTAssertEqual(child.count, 1, "the last state of the child stays readable")
    store.send(.present)
    XCTAssertEqual(store.child?.count, 0, "a new child is untouched by the old store")
  }

  func testAChildStoresStatesEndWhenTheChildGoesAway() async {
    let store = Store(initialState: Host.State()) { Host() }
    store.send(.present)
    guard let child = store.scope(state: \.child, action: { .child(.presented($0)) }) else {
      return XCTFail("the child is presented")
    }
    let states = child.states
    let collected = Task {
      var counts: [Int] = []
      for await state in states { counts.append(state.count) }
      return counts
    }
    child.send(.increment)
    store.send(.child(.dismiss))
    let counts = await collected.value
    XCTAssertEqual(counts.last, 1)
    XCTAssertTrue(counts.allSatisfy { $0 <= 1 })
  }

  func testScopingIntoAStackElementByID() {
    let store = Store(initialState: Host.State()) { Host() }
    store.send(.push)
    store.send(.push)
    guard let second = store.scope(state: \.path[id: 1], action: { .path(.element(id: 1, action: $0)) }) else {
      return XCTFail("element #1 is on the stack")
    }
    second.send(.increment)
    XCTAssertEqual(store.path[id: 1]?.count, 1)
    XCTAssertEqual(store.path[id: 0]?.count, 0)
    XCTAssertNil(store.scope(state: \.path[id: 7], action: { .path(.element(id: 7, action: $0)) }))
  }
}

private struct Counter: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

private struct Host: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var child: Counter.State?
    var path = StackState<Counter.State>()
  }
  enum Action: Equatable, Sendable {
    case child(PresentationAction<Counter.Action>)
    case path(StackActionOf<Counter>)
    case present, push
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
    static let pathCase = CasePath(Action.path) { if case let .path(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child, .path: break
      case .present: state.child = Counter.State()
      case .push: state.path.append(Counter.State())
      }
      return .none
    }
    .ifLet(\.$child, action: Action.childCase) { Counter() }
    .forEach(\.path, action: Action.pathCase) { Counter() }
  }
}

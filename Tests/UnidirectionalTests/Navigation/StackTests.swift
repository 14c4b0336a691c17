import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// `forEach` over `StackState`: TCA's StackReducerTests, in this library's spelling.
final class StackTests: XCTestCase {
  func testPushingFromTheParentGivesTheNextID() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.pushChild) { $0.children.append(Child.State()) }
    await store.send(.pushChild) { $0.children[id: 1] = Child.State() }
    XCTAssertEqual(store.state.children.ids, [0, 1])
  }

  func testPoppingFromTheParentCancelsThePoppedElementsEffects() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.pushChild) { $0.children.append(Child.State()) }
    await store.send(.children(.element(id: 0, action: .onAppear)))
    await store.send(.popChild) { $0.children.removeLast() }
  }

  func testAnElementDismissesItself() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.pushChild) { $0.children.append(Child.State()) }
    await store.send(.children(.element(id: 0, action: .onAppear)))
    await store.send(.children(.element(id: 0, action: .closeTapped)))
    await store.receive(.children(.popFrom(id: 0))) { $0.children.removeLast() }
  }

  func testDismissalSendsThePopOfItsOwnID() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: Parent.State(children: StackState([Child.State()])), reducer: { Parent() },
      reporter: failures.reporter)
    await store.send(.children(.element(id: 0, action: .closeTapped)))
    await store.receive(.children(.popFrom(id: 1))) { $0.children = StackState() }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("Received unexpected action"), failures.messages[0])
    XCTAssertTrue(
      failures.messages[0].contains("StackAction<Child.State, Child.Action>.popFrom(id: #1)"), failures.messages[0])
  }

  func testAnIntermediateElementDismissingItselfPopsEverythingAboveIt() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.children(.push(id: 0, state: Child.State(count: 2)))) {
      $0.children[id: 0] = Child.State(count: 2)
    }
    await store.send(.children(.element(id: 0, action: .dismissLater)))
    await store.send(.children(.push(id: 1, state: Child.State(count: 1)))) {
      $0.children[id: 1] = Child.State(count: 1)
    }
    await store.send(.children(.element(id: 1, action: .dismissLater)))
    await store.send(.children(.push(id: 2, state: Child.State(count: 2)))) {
      $0.children[id: 2] = Child.State(count: 2)
    }
    await store.send(.children(.element(id: 2, action: .dismissLater)))

    await clock.advance(by: .seconds(1))
    await store.receive(.children(.popFrom(id: 1))) { $0.children.removeLast(2) }
    await store.send(.children(.popFrom(id: 0))) { $0.children = StackState() }
  }

  func testADeepLinkedElementDismissesItself() async {
    var children = StackState<Child.State>()
    children.append(Child.State())
    let store = TestStore(initialState: Parent.State(children: children)) { Parent() }
    await store.send(.children(.element(id: 0, action: .closeTapped)))
    await store.receive(.children(.popFrom(id: 0))) { $0.children.removeAll() }
  }

  func testEnumElementsArePoppedWithTheirEffects() async {
    let store = TestStore(initialState: EnumParent.State()) { EnumParent() }
    await store.send(.pushChild1) { $0.path.append(.child1(Child.State())) }
    await store.send(.path(.element(id: 0, action: .child1(.onAppear))))
    await store.send(.pushChild2) { $0.path.append(.child2(Child.State())) }
    await store.send(.path(.element(id: 1, action: .child2(.onAppear))))
    await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
  }

  func testPoppingToTheRootCancelsEveryElementsEffects() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.pushChild) { $0.children.append(Child.State()) }
    await store.send(.children(.element(id: 0, action: .onAppear)))
    await store.send(.pushChild) { $0.children.append(Child.State()) }
    await store.send(.children(.element(id: 1, action: .onAppear)))
    await store.send(.popToRoot) { $0.children.removeAll() }
  }

  func testAnElementCannotCancelItsSiblingsIDs() async {
    let clock = TestClock()
    var path = StackState<Path.State>()
    path.append(.child1(Child.State()))
    path.append(.child2(Child.State()))
    let store = TestStore(initialState: EnumParent.State(path: path)) {
      EnumParent()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.path(.element(id: 0, action: .child1(.respondLater))))
    await store.send(.path(.element(id: 1, action: .child2(.respondLater))))
    await store.send(.path(.element(id: 0, action: .child1(.cancelResponse))))
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 1, action: .child2(.response(42))))) {
      $0.path[id: 1, case: Path.State.child2Case]?.count = 42
    }

    await store.send(.path(.element(id: 0, action: .child1(.respondLater))))
    await store.send(.path(.element(id: 1, action: .child2(.respondLater))))
    await store.send(.path(.element(id: 1, action: .child2(.cancelResponse))))
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .child1(.response(42))))) {
      $0.path[id: 0, case: Path.State.child1Case]?.count = 42
    }
  }

  func testEffectsOfAnElementStillOnTheStackReachItAfterAnotherIsRemoved() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: EnumParent.State(
        path: StackState([.child1(Child.State(count: 1)), .child2(Child.State(count: 2))]))
    ) {
      EnumParent()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.path(.element(id: 0, action: .child1(.addCountLater))))
    await store.send(.path(.element(id: 1, action: .child2(.addCountLater))))
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .child1(.add(1))))) {
      $0.path[id: 0, case: Path.State.child1Case]?.count = 2
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 1, action: .child2(.add(2))))) {
      $0.path[id: 1, case: Path.State.child2Case]?.count = 4
    }

    await store.send(.path(.element(id: 0, action: .child1(.addCountLater))))
    await store.send(.path(.element(id: 1, action: .child2(.addCountLater))))
    await store.send(.popFirst) { $0.path[id: 0] = nil }
    await clock.advance(by: .seconds(4))
    await store.receive(.path(.element(id: 1, action: .child2(.add(4))))) {
      $0.path[id: 1, case: Path.State.child2Case]?.count = 8
    }
    await store.send(.popFirst) { $0.path[id: 1] = nil }
  }

  func testEachElementRunsItsOwnEffects() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Parent.State(children: StackState([Child.State(count: 1), Child.State(count: 2)]))
    ) {
      Parent()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.children(.element(id: 0, action: .addCountLater)))
    await store.send(.children(.element(id: 1, action: .addCountLater)))
    await clock.advance(by: .seconds(1))
    await store.receive(.children(.element(id: 0, action: .add(1)))) { $0.children[id: 0]?.count = 2 }
    await clock.advance(by: .seconds(1))
    await store.receive(.children(.element(id: 1, action: .add(2)))) { $0.children[id: 1]?.count = 4 }
  }

  func testPoppingAnElementByIDCancelsItsEffect() async {
    let store = TestStore(initialState: Parent.State(children: StackState([Child.State()]))) { Parent() }
    await store.send(.children(.element(id: 0, action: .onAppear)))
    await store.send(.children(.popFrom(id: 0))) { $0.children[id: 0] = nil }
  }

  func testALongLivingElementEffectLeftRunningFailsTheTest() async {
    let failures = TestFailures()
    do {
      let store = TestStore(
        initialState: Parent.State(children: StackState([Child.State()])), reducer: { Parent() },
        reporter: failures.reporter)
      await store.send(.children(.element(id: 0, action: .onAppear)))
    }
    XCTAssertEqual(failures.messages.count, 1, "\(failures.messages)")
    XCTAssertTrue(failures.messages.first?.contains("is still running") == true, "\(failures.messages)")
  }

  // MARK: Pushing with ids

  func testPushActionsUseTheStoresIDsAndParentPushesContinueFromThem() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.children(.push(id: 0, state: Child.State()))) { $0.children[id: 0] = Child.State() }
    await store.send(.pushChild) { $0.children[id: 1] = Child.State() }
    await store.send(.children(.push(id: 2, state: Child.State()))) { $0.children[id: 2] = Child.State() }
    await store.send(.pushChild) { $0.children[id: 3] = Child.State() }
    await store.send(.children(.popFrom(id: 0))) { $0.children = StackState() }
    await store.send(.children(.push(id: 0, state: Child.State()))) { $0.children[id: 0] = Child.State() }
  }

  func testPushingAnIDAlreadyOnTheStackIsARuntimeIssueAndChangesNothing() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Parent.State(), reducer: { Parent() }, reporter: failures.reporter)
    await store.send(.children(.push(id: 0, state: Child.State()))) { $0.children[id: 0] = Child.State() }
    await store.send(.children(.push(id: 0, state: Child.State(count: 9))))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages[0].contains("received a \"push\" action for an element it already contains: #0"),
      failures.messages[0])
    XCTAssertEqual(store.state.children[id: 0], Child.State())
  }

  func testPushingAnIDAheadOfTheStoresNextIsARuntimeIssueInTests() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Parent.State(), reducer: { Parent() }, reporter: failures.reporter)
    await store.send(.children(.push(id: 1, state: Child.State()))) { $0.children[id: 1] = Child.State() }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages[0].contains("unexpected id: #1, where the store's next stack id is #0"), failures.messages[0])
  }

  func testAnAssertionWithTheWrongIDIsAMismatchNamingBothIDs() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Parent.State(), reducer: { Parent() }, reporter: failures.reporter)
    await store.send(.children(.push(id: 0, state: Child.State()))) { $0.children[id: 1] = Child.State() }
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("-     #1: Child.State("), failures.messages[0])
    XCTAssertTrue(failures.messages[0].contains("+     #0: Child.State("), failures.messages[0])
  }

  func testAssertionClosuresUseACopyOfTheStoresIDs() async {
    let store = TestStore(initialState: Numbers.State()) { Numbers() }
    await store.send(.buttonTapped) {
      $0.path.append(1)
      @Dependency(\.stackElementID) var stackElementID
      _ = stackElementID.next()
      _ = stackElementID.next()
      // Appending after drawing ids here does not touch the store's own sequence.
      $0.path.append(2)
      $0.path = StackState()
      $0.path[id: 0] = 1
      $0.path[id: 1] = 2
    }
    await store.receive(.response) {
      $0.path.append(3)
    }
    await store.send(.buttonTapped) {
      $0.path.append(1)
      $0.path.append(2)
    }
    await store.receive(.response) { $0.path[id: 5] = 3 }
    XCTAssertEqual(store.state.path.ids, [0, 1, 2, 3, 4, 5])
  }

  // MARK: Runtime issues

  func testAnActionForAMissingIDIsARuntimeIssueAndChangesNothing() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: Parent.State(children: StackState([Child.State()])), reducer: { Parent() },
      reporter: failures.reporter)
    await store.send(.children(.element(id: 999, action: .incrementTapped)))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("received an action for a missing element #999"), failures.messages[0])
    XCTAssertEqual(store.state.children[id: 0], Child.State())
  }

  func testPoppingAMissingIDIsARuntimeIssueAndChangesNothing() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: Parent.State(children: StackState([Child.State()])), reducer: { Parent() },
      reporter: failures.reporter)
    await store.send(.children(.popFrom(id: 999)))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages[0].contains("received a \"popFrom\" action for a missing element #999. Stack ids: [#0]"),
      failures.messages[0])
  }

  func testRemovingElementsFromAReducerAfterTheForEachCancelsAtTheNextAction() async {
    let store = TestStore(initialState: OuterRemoval.State()) { OuterRemoval() }
    await store.send(.children(.push(id: 0, state: Child.State()))) { $0.children[id: 0] = Child.State() }
    await store.send(.children(.element(id: 0, action: .onAppear)))
    await store.send(.tapBefore) { $0.children.removeAll() }

    await store.send(.children(.push(id: 1, state: Child.State()))) { $0.children[id: 1] = Child.State() }
    await store.send(.children(.element(id: 1, action: .onAppear)))
    await store.send(.tapAfter) { $0.children.removeAll() }
    // Removed after the `forEach` ran: it notices at the next action it sees.
    await store.send(.tapAfter)
  }

  func testAnElementReadsItselfAsPresented() async {
    let store = TestStore(initialState: Parent.State(children: StackState([Child.State()]))) { Parent() }
    await store.send(.children(.element(id: 0, action: .checkPresented))) { $0.children[id: 0]?.isPresented = true }
  }
}

// MARK: - Features

private struct Child: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var isPresented = false
  }
  enum Action: Equatable, Sendable {
    case add(Int), addCountLater, cancelResponse, checkPresented, closeTapped, dismissLater, incrementTapped
    case onAppear, respondLater, response(Int)
  }
  enum CancelID { case response }
  @Dependency(\.clock) var clock
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.isPresented) var isPresented

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .add(value):
      state.count += value
      return .none
    case .addCountLater:
      return .run { [count = state.count] send in
        try await clock.sleep(for: .seconds(count))
        send(.add(count))
      }
    case .cancelResponse:
      return .cancel(id: CancelID.response)
    case .checkPresented:
      state.isPresented = isPresented
      return .none
    case .closeTapped:
      return .run { _ in await dismiss() }
    case .dismissLater:
      return .run { [count = state.count] _ in
        try await clock.sleep(for: .seconds(count))
        await dismiss()
      }
    case .incrementTapped:
      state.count += 1
      return .none
    case .onAppear:
      return .run { _ in try await Task.never() }
    case .respondLater:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.response(42))
      }
      .cancellable(id: CancelID.response)
    case let .response(value):
      state.count = value
      return .none
    }
  }
}

private struct Parent: Reducer {
  struct State: Equatable, Sendable { var children = StackState<Child.State>() }
  enum Action: Equatable, Sendable {
    case children(StackActionOf<Child>)
    case popChild, popToRoot, pushChild
    static let childrenCase = CasePath(Action.children) { if case let .children(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .children: break
      case .popChild: state.children.removeLast()
      case .popToRoot: state.children.removeAll()
      case .pushChild: state.children.append(Child.State())
      }
      return .none
    }
    .forEach(\.children, action: Action.childrenCase) { Child() }
  }
}

private struct Path: Reducer {
  enum State: Equatable, Sendable {
    case child1(Child.State)
    case child2(Child.State)
    static let child1Case = CasePath(State.child1) { if case let .child1(state) = $0 { state } else { nil } }
    static let child2Case = CasePath(State.child2) { if case let .child2(state) = $0 { state } else { nil } }
  }
  enum Action: Equatable, Sendable {
    case child1(Child.Action)
    case child2(Child.Action)
    static let child1Case = CasePath(Action.child1) { if case let .child1(action) = $0 { action } else { nil } }
    static let child2Case = CasePath(Action.child2) { if case let .child2(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Scope(state: State.child1Case, action: Action.child1Case) { Child() }
    Scope(state: State.child2Case, action: Action.child2Case) { Child() }
  }
}

private struct EnumParent: Reducer {
  struct State: Equatable, Sendable { var path = StackState<Path.State>() }
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Path>)
    case popFirst, pushChild1, pushChild2
    static let pathCase = CasePath(Action.path) { if case let .path(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .path: break
      case .popFirst: state.path[id: state.path.ids[0]] = nil
      case .pushChild1: state.path.append(.child1(Child.State()))
      case .pushChild2: state.path.append(.child2(Child.State()))
      }
      return .none
    }
    .forEach(\.path, action: Action.pathCase) { Path() }
  }
}

private struct Numbers: Reducer {
  struct State: Equatable, Sendable { var path = StackState<Int>() }
  enum Action: Equatable, Sendable {
    case buttonTapped, response
    case path(StackAction<Int, Never>)
    static let pathCase = CasePath(Action.path) { if case let .path(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .buttonTapped:
        state.path.append(1)
        state.path.append(2)
        return .send(.response)
      case .response:
        state.path.append(3)
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: Action.pathCase) { EmptyReducer() }
  }
}

private struct OuterRemoval: Reducer {
  struct State: Equatable, Sendable { var children = StackState<Child.State>() }
  enum Action: Equatable, Sendable {
    case children(StackActionOf<Child>)
    case tapAfter, tapBefore
    static let childrenCase = CasePath(Action.children) { if case let .children(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .tapBefore = action { state.children.removeAll() }
      return .none
    }
    EmptyReducer().forEach(\.children, action: Action.childrenCase) { Child() }
    Reduce { state, action in
      if case .tapAfter = action { state.children.removeAll() }
      return .none
    }
  }
}

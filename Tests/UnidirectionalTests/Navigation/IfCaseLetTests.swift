import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// `ifCaseLet` and `Scope` over an enum case: TCA's IfCaseLetReducerTests, in this library's spelling.
final class IfCaseLetTests: XCTestCase {
  func testTheChildRunsOnItsCase() async {
    let store = TestStore(initialState: Outcome.success(0)) {
      Reduce<Outcome, Outcome> { _, _ in .none }
        .ifCaseLet(Outcome.successCase, action: Outcome.successCase) {
          Reduce { state, action in
            state = action
            return state < 0 ? .run { send in send(0) } : .none
          }
        }
    }
    await store.send(.success(1)) { $0 = .success(1) }
    await store.send(.failure("nope"))
    await store.send(.success(-1)) { $0 = .success(-1) }
    await store.receive(.success(0)) { $0 = .success(0) }
  }

  func testAChildActionInAnotherCaseIsARuntimeIssueAndChangesNothing() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: Outcome.failure("nope"),
      reducer: { EmptyReducer<Outcome, Outcome>().ifCaseLet(Outcome.successCase, action: Outcome.successCase) {} },
      reporter: failures.reporter)
    await store.send(.success(1))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("An \"ifCaseLet\" at "), failures.messages[0])
    XCTAssertTrue(
      failures.messages[0].contains(
        "received a child action when child state was set to a different case: Outcome.success(1) while the "
          + "state is Outcome.failure(\"nope\")"),
      failures.messages[0])
    XCTAssertEqual(store.state, .failure("nope"))
  }

  func testLeavingTheCaseCancelsTheChildsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Siblings.State.child1(Ticker.State())) {
      Siblings()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.child1(.startTimer))
    await clock.advance(by: .seconds(1))
    await store.receive(.child1(.tick)) { $0 = .child1(Ticker.State(count: 1)) }
    await store.send(.child2ButtonTapped) { $0 = .child2(Ticker.State()) }
    // The first child's timer went with its case.
    await clock.advance(by: .seconds(3))
  }

  func testReplacingTheCasesValueByAnotherIdentityCancelsTheOldOnesEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Identified.State.child(IdentifiedChild.State(id: 1))) {
      Identified()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.child(.tap))
    await store.send(.newChild) { $0 = .child(IdentifiedChild.State(id: 2)) }
    await store.send(.child(.tap))
    await clock.advance()
    await store.receive(.child(.response(2))) { $0 = .child(IdentifiedChild.State(id: 2, value: 2)) }
  }

  func testScopeToACaseRunsTheChildThereAndReportsOtherCases() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: Outcome.success(0),
      reducer: {
        Scope(state: Outcome.successCase, action: Outcome.successCase) {
          Reduce { state, action in
            state += action
            return .none
          }
        }
      },
      reporter: failures.reporter)
    await store.send(.success(2)) { $0 = .success(2) }
    await store.send(.failure("ignored"))  // not a child action: the scope ignores it
    await store.send(.success(1)) { $0 = .success(3) }
    XCTAssertEqual(failures.messages, [])
    let failing = TestStore(
      initialState: Outcome.failure("nope"),
      reducer: { Scope(state: Outcome.successCase, action: Outcome.successCase) { EmptyReducer() } },
      reporter: failures.reporter)
    await failing.send(.success(1))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(
      failures.messages[0].contains("A \"Scope\" at ")
        && failures.messages[0].contains("received a child action when child state was set to a different case"),
      failures.messages[0])
  }
}

private enum Outcome: Equatable, Sendable {
  case success(Int)
  case failure(String)
  static let successCase = CasePath(Outcome.success) { if case let .success(value) = $0 { value } else { nil } }
}

private struct Ticker: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Equatable, Sendable { case startTimer, tick }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      return .ticking(.tick, on: clock)
    case .tick:
      state.count += 1
      return .none
    }
  }
}

private struct Siblings: Reducer {
  enum State: Equatable, Sendable {
    case child1(Ticker.State)
    case child2(Ticker.State)
    static let child1Case = CasePath(State.child1) { if case let .child1(state) = $0 { state } else { nil } }
    static let child2Case = CasePath(State.child2) { if case let .child2(state) = $0 { state } else { nil } }
  }
  enum Action: Equatable, Sendable {
    case child1(Ticker.Action)
    case child1ButtonTapped
    case child2(Ticker.Action)
    case child2ButtonTapped
    static let child1Case = CasePath(Action.child1) { if case let .child1(action) = $0 { action } else { nil } }
    static let child2Case = CasePath(Action.child2) { if case let .child2(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child1, .child2: break
      case .child1ButtonTapped: state = .child1(Ticker.State())
      case .child2ButtonTapped: state = .child2(Ticker.State())
      }
      return .none
    }
    .ifCaseLet(State.child1Case, action: Action.child1Case) { Ticker() }
    .ifCaseLet(State.child2Case, action: Action.child2Case) { Ticker() }
  }
}

private struct IdentifiedChild: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var value = 0
  }
  enum Action: Equatable, Sendable { case response(Int), tap }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      return .run { [id = state.id] send in
        try await clock.sleep(for: .zero)
        send(.response(id))
      }
    case let .response(value):
      state.value = value
      return .none
    }
  }
}

private struct Identified: Reducer {
  enum State: Equatable, Sendable {
    case child(IdentifiedChild.State)
    static let childCase = CasePath(State.child) { if case let .child(state) = $0 { state } else { nil } }
  }
  enum Action: Equatable, Sendable {
    case child(IdentifiedChild.Action)
    case newChild
    static let childCase = CasePath(Action.child) { if case let .child(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .newChild = action, case let .child(child) = state {
        state = .child(IdentifiedChild.State(id: child.id + 1))
      }
      return .none
    }
    .ifCaseLet(State.childCase, action: Action.childCase) { IdentifiedChild() }
  }
}

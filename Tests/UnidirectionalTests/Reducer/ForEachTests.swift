import Unidirectional
import UnidirectionalTesting
import XCTest

private struct Row: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var progress = 0
  }

  enum Action: Equatable, Sendable { case start, progressed, cancel }
  enum CancelID { case work }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.progressed)
        }
      }
      .cancellable(id: CancelID.work)
    case .progressed:
      state.progress += 1
      return .none
    case .cancel:
      return .cancel(id: CancelID.work)
    }
  }
}

private struct List: Reducer {
  struct State: Equatable, Sendable { var rows: IdentifiedArrayOf<Row.State> = [] }
  enum Action: Equatable, Sendable {
    case add(Int), remove(Int)
    case row(id: Int, action: Row.Action)

    static let rowCase = CasePath<Action, (id: Int, action: Row.Action)>({ .row(id: $0.id, action: $0.action) }) {
      if case let .row(id, action) = $0 { (id, action) } else { nil }
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .add(id): state.rows.append(Row.State(id: id))
      case let .remove(id): state.rows.remove(id: id)
      case .row: break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rowCase) { Row() }
  }
}

final class ForEachTests: XCTestCase {
  func testElementsRunIndependentlyAndSameCancelIDsDoNotCollide() async {
    let clock = TestClock()
    let store = TestStore(initialState: List.State()) {
      List()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.add(1)) { $0.rows = [Row.State(id: 1)] }
    await store.send(.add(2)) { $0.rows = [Row.State(id: 1), Row.State(id: 2)] }
    await store.send(.row(id: 1, action: .start))
    await store.send(.row(id: 2, action: .start))
    await clock.advance(by: .seconds(1))
    await store.receive(.row(id: 1, action: .progressed)) { $0.rows[id: 1]?.progress = 1 }
    await store.receive(.row(id: 2, action: .progressed)) { $0.rows[id: 2]?.progress = 1 }
    // Row 1 cancels its own work only.
    await store.send(.row(id: 1, action: .cancel))
    await clock.advance(by: .seconds(1))
    await store.receive(.row(id: 2, action: .progressed)) { $0.rows[id: 2]?.progress = 2 }
    await store.send(.remove(2)) { $0.rows = [Row.State(id: 1, progress: 1)] }
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  func testRemovingAnElementCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: List.State(rows: [Row.State(id: 7)])) {
      List()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.row(id: 7, action: .start))
    await store.send(.remove(7)) { $0.rows = [] }
    await clock.advance(by: .seconds(10))
    await store.finish()
  }

  func testActionForAMissingElementIsARuntimeIssue() async {
    let failures = TestFailures()
    let store = TestStore(initialState: List.State(), reducer: { List() }, reporter: failures.reporter)
    await store.send(.row(id: 3, action: .progressed))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("A \"forEach\" at"), failures.messages[0])
    XCTAssertTrue(failures.messages[0].contains("missing element 3"), failures.messages[0])
  }
}

import Unidirectional
import UnidirectionalTesting
import XCTest

private struct Counter: Reducer {
  struct State: Equatable { var count = 0; var isTimerOn = false }
  enum Action: Equatable { case increment, startTimer, tick, stopTimer, delayed, response(Int) }
  enum CancelID { case timer }
  @Dependency(\.clock) var clock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .startTimer:
        state.isTimerOn = true
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            send(.tick)
          }
        }
        .cancellable(id: CancelID.timer)
      case .tick:
        state.count += 1
        return .none
      case .stopTimer:
        state.isTimerOn = false
        return .cancel(id: CancelID.timer)
      case .delayed:
        return .run { send in send(.response(42)) }
      case let .response(value):
        state.count = value
        return .none
      }
    }
  }
}

final class SmokeTests: XCTestCase {
  func testTimer() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: { $0.clock = clock }
    await store.send(.startTimer) { $0.isTimerOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 1 }
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.count = 2 }
    await store.receive(.tick) { $0.count = 3 }
    await store.send(.stopTimer) { $0.isTimerOn = false }
    await store.finish()
  }

  func testRunEffect() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.delayed)
    await store.receive(.response(42)) { $0.count = 42 }
  }

  func testFailures() async {
    let failures = TestFailures()
    let clock = TestClock()
    do {
      let store = TestStore(initialState: Counter.State(), reducer: { Counter() }, withDependencies: { $0.clock = clock }, reporter: failures.reporter)
      await store.send(.increment) { $0.count = 2 }
      await store.send(.startTimer) { $0.isTimerOn = true }
      await store.receive(.tick)
    }
    print(failures.messages.joined(separator: "\n-----\n"))
    XCTAssertEqual(failures.messages.count, 3)
  }

  func testLiveStore() async {
    let store = Store(initialState: Counter.State()) { Counter() } withDependencies: { $0.clock = ImmediateClock() }
    await store.send(.delayed).finish()
    XCTAssertEqual(store.count, 42)
  }
}

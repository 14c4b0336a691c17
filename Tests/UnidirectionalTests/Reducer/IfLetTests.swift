import Unidirectional
import UnidirectionalTesting
import XCTest

private struct Timer: Reducer {
  struct State: Equatable, Sendable { var ticks = 0 }
  enum Action: Equatable, Sendable { case start, tick }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

private struct Screen: Reducer {
  struct State: Equatable, Sendable { var timer: Timer.State? }
  enum Action: Equatable, Sendable {
    case show, dismiss
    case timer(Timer.Action)
    static let timerCase = CasePath(Action.timer) { if case let .timer(action) = $0 { action } else { nil } }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .show: state.timer = Timer.State()
      case .dismiss: state.timer = nil
      case .timer: break
      }
      return .none
    }
    .ifLet(\.timer, action: Action.timerCase) { Timer() }
  }
}

final class IfLetTests: XCTestCase {
  func testChildRunsWhilePresentAndItsEffectsAreCancelledOnDismissal() async {
    let clock = TestClock()
    let store = TestStore(initialState: Screen.State()) {
      Screen()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.show) { $0.timer = Timer.State() }
    await store.send(.timer(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(.tick)) { $0.timer?.ticks = 1 }
    await store.send(.dismiss) { $0.timer = nil }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  func testChildActionWhileNilIsARuntimeIssue() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Screen.State(), reducer: { Screen() }, reporter: failures.reporter)
    await store.send(.timer(.tick))
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertTrue(failures.messages[0].contains("An \"ifLet\" at"), failures.messages[0])
    XCTAssertTrue(failures.messages[0].contains("Screen.Action.timer(Timer.Action.tick)"), failures.messages[0])
    XCTAssertTrue(failures.messages[0].contains("while its child state was nil"), failures.messages[0])
  }

  func testReshownChildStartsFreshEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Screen.State()) {
      Screen()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.show) { $0.timer = Timer.State() }
    await store.send(.timer(.start))
    await store.send(.dismiss) { $0.timer = nil }
    await store.send(.show) { $0.timer = Timer.State() }
    await store.send(.timer(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(.tick)) { $0.timer?.ticks = 1 }
    await store.send(.dismiss) { $0.timer = nil }
    await store.finish()
  }
}

// swift-format-ignore-file
// The "Testing" article's code (Sources/UnidirectionalTesting/UnidirectionalTesting.docc/Testing.md), compiled and
// run here; Scripts/tests/test_doc_snippets.py checks that the article shows it verbatim. Not reformatted by
// swift-format, so that the article and this file stay the same text.
import Testing
import Unidirectional
import UnidirectionalTesting

/// A timer the article's tests drive with a `TestClock`.
struct Ticker: Reducer {
  struct State: Equatable { var ticks = 0; var isRunning = false }
  enum Action: Equatable { case startTapped, stopTapped, tick }
  enum CancelID { case timer }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTapped:
      state.isRunning = true
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) { send(.tick) }
      }
      .cancellable(id: CancelID.timer)
    case .stopTapped:
      state.isRunning = false
      return .cancel(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

@Suite struct TestingArticleSnippets {
  @Test func startAndStop() async {
    let clock = TestClock()
    let store = TestStore(initialState: Ticker.State()) { Ticker() } withDependencies: { $0.clock = clock }
    await store.send(.startTapped) { $0.isRunning = true }
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    await store.send(.stopTapped) { $0.isRunning = false }  // cancels the timer: nothing left running
  }

  @Test func ticksAreCounted() async {
    let clock = TestClock()
    let store = TestStore(initialState: Ticker.State()) { Ticker() } withDependencies: { $0.clock = clock }
    store.exhaustivity = .off
    await store.send(.startTapped)
    await clock.advance(by: .seconds(3))
    await store.skipReceivedActions()
    #expect(store.state.ticks == 3)
  }
}

@MainActor
@Suite struct TickerTests {
  final class Tally { var assertions = 0 }

  @Test func theClosureRunsOnTheMainActor() async {
    let tally = Tally()
    let store = TestStore(initialState: Ticker.State()) { Ticker() }
    await store.send(.tick) {
      tally.assertions += 1
      $0.ticks = 1
    }
    #expect(tally.assertions == 1)
  }
}

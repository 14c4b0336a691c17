import Testing
import Unidirectional
import UnidirectionalTesting

/// The small scenario the strategies' tests explore: four effects sleep until the same instant, so when the clock
/// reaches it all four are ready at once and any of their 4! = 24 orders can run. Its choice points are the three
/// picks of which woken effect runs next, among 4, then 3, then 2.
struct WokenTogether: Reducer {
  struct State: Equatable { var order: [Int] = [] }
  enum Action: Equatable { case start(Int), woke(Int) }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .start(effect):
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.woke(effect))
      }
    case let .woke(effect):
      state.order.append(effect)
      return .none
    }
  }

  /// Runs the four effects and returns the order they woke in, after `check` has seen it.
  @MainActor
  static func wakeFour(check: ([Int]) -> Void = { _ in }) async -> [Int] {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { WokenTogether(clock: clock) }
    store.exhaustivity = .off
    for effect in 0..<4 { await store.send(.start(effect)) }
    await clock.advance(by: .seconds(1))
    await store.finish()
    await store.skipReceivedActions(strict: false)
    check(store.state.order)
    return store.state.order
  }
}

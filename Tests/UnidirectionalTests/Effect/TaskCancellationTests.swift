import Unidirectional
import UnidirectionalTesting
import XCTest

private struct Poller: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    var id = 0
    var ticks = 0
    var results: [String] = []
  }
  enum Action: Equatable, Sendable {
    case start, tick, stopFromInsideAnEffect, search(String), results(String), cancelSearch
  }
  enum CancelID { case timer, search }
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
      .cancellable(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      return .none
    case .stopFromInsideAnEffect:
      return .run { _ in await Task.cancel(id: CancelID.timer) }
    case let .search(query):
      return .run { send in
        let result = try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
          try await clock.sleep(for: .seconds(1))
          return "results for \(query)"
        }
        send(.results(result))
      }
    case let .results(result):
      state.results.append(result)
      return .none
    case .cancelSearch:
      return .cancel(id: CancelID.search)
    }
  }
}

final class TaskCancellationTests: XCTestCase {
  private func makeStore(_ clock: TestClock) -> TestStore<Poller.State, Poller.Action> {
    TestStore(initialState: Poller.State()) {
      Poller()
    } withDependencies: {
      $0.clock = clock
    }
  }

  func testAnEffectCancelsAnotherEffectOfItsStoreByID() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.start)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.send(.stopFromInsideAnEffect)
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  func testWorkWrappedWithTaskCancellationIsCancelledInFlightByTheNextOne() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.search("a"))
    await clock.advance(by: .milliseconds(500))
    await store.send(.search("ab"))
    await clock.advance(by: .seconds(1))
    // The first search's work was cancelled: its effect ended without sending.
    await store.receive(.results("results for ab")) { $0.results = ["results for ab"] }
    await store.finish()
  }

  func testAReducersCancelReachesWorkWrappedWithTaskCancellation() async {
    let clock = TestClock()
    let store = makeStore(clock)
    await store.send(.search("a"))
    await store.send(.cancelSearch)
    await clock.advance(by: .seconds(2))
    await store.finish()
  }

  func testIDsUsedInsideAnElementsEffectsAreNamespacedToThatElement() async {
    let clock = TestClock()
    let store = TestStore(initialState: Pollers.State()) {
      Pollers()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.poller(id: 1, action: .start))
    await store.send(.poller(id: 2, action: .start))
    await store.send(.poller(id: 1, action: .stopFromInsideAnEffect))
    await clock.advance(by: .seconds(1))
    // Only element 1's timer stopped; element 2's, with the same id, still ticks.
    await store.receive(.poller(id: 2, action: .tick)) { $0.pollers[id: 2]?.ticks = 1 }
    await store.send(.removeAll) { $0.pollers = [] }
    await store.finish()
  }

  func testAParentsCancelReachesTheSameIDInEveryElement() async {
    let clock = TestClock()
    let store = TestStore(initialState: Pollers.State()) {
      Pollers()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.poller(id: 1, action: .start))
    await store.send(.poller(id: 2, action: .search("kite")))
    await store.send(.stopAll)
    // Both the element's timer and the other element's search work (withTaskCancellation) are gone.
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  func testTaskCancelFromAParentsEffectReachesItsElements() async {
    let clock = TestClock()
    let store = TestStore(initialState: Pollers.State()) {
      Pollers()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.poller(id: 1, action: .start))
    await store.send(.poller(id: 2, action: .start))
    await store.send(.stopAllFromAnEffect)
    await clock.advance(by: .seconds(3))
    await store.finish()
  }
}

private struct Pollers: Reducer {
  struct State: Equatable, Sendable {
    var pollers: IdentifiedArray<Int, Poller.State> = [Poller.State(id: 1), Poller.State(id: 2)]
  }
  enum Action: Equatable, Sendable {
    case poller(id: Int, action: Poller.Action), removeAll, stopAll, stopAllFromAnEffect
  }
  static let pollerCase = CasePath<Action, (id: Int, action: Poller.Action)>(Action.poller) {
    if case let .poller(id, action) = $0 { (id, action) } else { nil }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .removeAll: state.pollers = []
      case .stopAll: return .merge(.cancel(id: Poller.CancelID.timer), .cancel(id: Poller.CancelID.search))
      case .stopAllFromAnEffect: return .run { _ in await Task.cancel(id: Poller.CancelID.timer) }
      case .poller: break
      }
      return .none
    }
    .forEach(\.pollers, action: Self.pollerCase) { Poller() }
  }
}

// swift-format-ignore-file
import Testing
import Unidirectional
import UnidirectionalTesting

// The README's example and the "Getting started" article's (Sources/Unidirectional/Unidirectional.docc/
// GettingStarted.md), verbatim (inside a suite, so its names don't clash with the other tests' fixtures): if this
// stops compiling or passing, they are wrong (Scripts/tests/test_doc_snippets.py checks they show the same text).
@Suite struct ReadmeExample {
  struct Counter: Reducer {
    struct State: Equatable { var count = 0; var fact: String? }
    enum Action: Equatable { case incrementTapped, factButtonTapped, factLoaded(String) }
    @Dependency(\.clock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .incrementTapped:
        state.count += 1
        return .none
      case .factButtonTapped:
        return .run { [count = state.count] send in
          try await clock.sleep(for: .seconds(1))
          send(.factLoaded("\(count) is a good number"))
        }
      case let .factLoaded(fact):
        state.fact = fact
        return .none
      }
    }
  }

  @Test func factArrivesAfterASecond() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: { $0.clock = clock }
    await store.send(.incrementTapped) { $0.count = 1 }
    await store.send(.factButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.factLoaded("1 is a good number")) { $0.fact = "1 is a good number" }
  }

  @Test func aStoreRunsIt() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.incrementTapped)
    print(store.count)  // 1
    #expect(store.count == 1)
  }

  @Test func aHostAwaitsEachCommandsEffects() async {
    let host = Store(initialState: Counter.State()) { Counter() } withDependencies: { $0.clock = ImmediateClock() }
    for command in [Counter.Action.incrementTapped, .factButtonTapped, .incrementTapped] {
      await host.send(command).finish()  // its effects, and the actions they sent, are done
    }
    print(host.fact ?? "none")  // 1 is a good number
    #expect(host.fact == "1 is a good number")
    #expect(host.count == 2)
  }
}

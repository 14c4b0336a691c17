import Testing
import Unidirectional
import UnidirectionalTesting

/// A shared optional in a test store's state (`@Shared var selection: Int?`, `@Shared(.appStorage("name")) var
/// name: String?`): while no action changes it, an assertion sees its live value; once one does, the value as of the
/// last assertion, to change in the closure. (An unchanged shared optional used to read as nil in every assertion,
/// so any action failed with a diff on it.)
@MainActor
@Suite struct SharedOptionalStateTests {
  struct Feature: Reducer {
    struct State: Equatable, Sendable {
      @Shared var selection: Int?
      var count = 0
    }
    enum Action: Equatable, Sendable {
      case increment
      case select(Int?)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .increment:
        state.count += 1
        return .none
      case let .select(selection):
        state.$selection.withLock { $0 = selection }
        return .none
      }
    }
  }

  @Test func anUnchangedSharedOptionalIsItsLiveValue() async {
    let store = TestStore(initialState: Feature.State(selection: Shared(value: 3))) { Feature() }
    await store.send(.increment) {
      $0.count = 1
    }
  }

  @Test func aChangedSharedOptionalIsAssertedLikeAnyOther() async {
    let store = TestStore(initialState: Feature.State(selection: Shared(value: 3))) { Feature() }
    await store.send(.select(nil)) {
      $0.$selection.withLock { $0 = nil }
    }
    await store.send(.select(4)) {
      $0.$selection.withLock { $0 = 4 }
    }
    await store.send(.increment) {
      $0.count = 1
    }
  }

  @Test func aPersistedSharedOptionalToo() async {
    let store = TestStore(initialState: Feature.State(selection: Shared(.appStorage("selection")))) { Feature() }
    await store.send(.select(1)) {
      $0.$selection.withLock { $0 = 1 }
    }
    await store.send(.increment) {
      $0.count = 1
    }
  }
}

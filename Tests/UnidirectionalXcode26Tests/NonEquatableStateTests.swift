import Testing
import Unidirectional
import UnidirectionalTesting

/// A state that is not `Equatable` — it holds a closure — tested exhaustively from a target with Xcode 26's settings.
struct NonEquatableStateTests {
  struct Greeter: Reducer {
    struct State {
      var name = ""
      var greeting: (String) -> String = { "Hello, \($0)!" }
      var shown: String?
    }
    nonisolated enum Action: Equatable { case named(String), greet }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .named(name): state.name = name
      case .greet: state.shown = state.greeting(state.name)
      }
      return .none
    }
  }

  @Test func theClosureIsPartOfTheStateAndTheRestIsAsserted() async {
    let store = TestStore(initialState: Greeter.State()) { Greeter() }
    await store.send(.named("Blob")) { $0.name = "Blob" }
    await store.send(.greet) { $0.shown = "Hello, Blob!" }
  }
}

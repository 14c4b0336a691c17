// swift-format-ignore-file
import Testing
import Unidirectional
import UnidirectionalTesting

// The "Bindings" article's example (Sources/Unidirectional/Unidirectional.docc/Bindings.md), verbatim: if this
// stops compiling or passing, the article is wrong (Scripts/tests/test_doc_snippets.py checks it is the same text).
@Suite struct ReadmeBindingsExample {
  struct EditTodo: Reducer {
    struct State: Equatable { var title = "", isValid = false, renames = 0 }
    enum Action: BindableAction, Equatable { case binding(BindingAction<State>), saveTapped }

    var body: some Reducer<State, Action> {
      BindingReducer()  // or BindingReducer(action: Action.viewCase)
        .onChange(of: \.title) { oldValue, newValue in
          Reduce { state, _ in
            state.renames += 1
            return .none
          }
        }
      Reduce { state, action in
        switch action {
        case .binding(\.title):  // any write of title
          state.isValid = !state.title.isEmpty
          return .none
        case .binding, .saveTapped:
          return .none
        }
      }
    }
  }

  @Test func editingTheTitle() async {
    let store = TestStore(initialState: EditTodo.State()) { EditTodo() }
    // The same as .send(.binding(.set(\.title, "Milk"))) or .send(.set(\.title, "Milk")):
    await store.send(\.binding.title, "Milk") {
      $0.title = "Milk"
      $0.isValid = true
      $0.renames = 1
    }
    // From an effect: receive(\.binding.title), receive(\.binding.title, "Milk"), receive(.binding(\.title)), …
  }
}

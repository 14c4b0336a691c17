import Foundation
import Unidirectional

// A list of todos as an Xcode 26 app target writes it: every type main-actor isolated by default, `nonisolated`
// only on the action enums (their `Equatable` conformance is compared off the main actor). It uses `forEach` over an
// identified array, `ifLet` over an optional child, bindings and a `@Dependency` read while reducing.

struct Todo: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var title = ""
    var isDone = false
  }
  nonisolated enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case toggleTapped
  }

  var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none
      case .toggleTapped:
        state.isDone.toggle()
        return .none
      }
    }
  }
}

struct Todos: Reducer {
  struct State: Equatable {
    var todos: IdentifiedArrayOf<Todo.State> = []
    var editing: Todo.State?
  }
  nonisolated enum Action: Equatable {
    case addTapped
    case todos(IdentifiedActionOf<Todo>)
    case editing(Todo.Action)
    case editTapped(UUID)
    case doneEditingTapped

  }
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTapped:
        state.todos.append(Todo.State(id: uuid()))
        return .none
      case let .editTapped(id):
        state.editing = state.todos[id: id]
        return .none
      case .doneEditingTapped:
        if let editing = state.editing { state.todos[id: editing.id] = editing }
        state.editing = nil
        return .none
      case .todos, .editing:
        return .none
      }
    }
    .forEach(\.todos, action: Action.todos) { Todo() }
    .ifLet(\.editing, action: Action.editing) { Todo() }
  }
}

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
    case todo(id: UUID, action: Todo.Action)
    case editing(Todo.Action)
    case editTapped(UUID)
    case doneEditingTapped

    static let todoCase = CasePath<Self, (id: UUID, action: Todo.Action)>({ .todo(id: $0.id, action: $0.action) }) {
      if case let .todo(id, action) = $0 { (id, action) } else { nil }
    }
    static let editingCase = CasePath(Action.editing) { if case let .editing(action) = $0 { action } else { nil } }
  }
  @Dependency(\.uuid) var uuid

  var body: some Reducer<State, Action> {
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
      case .todo, .editing:
        return .none
      }
    }
    .forEach(\.todos, action: Action.todoCase) { Todo() }
    .ifLet(\.editing, action: Action.editingCase) { Todo() }
  }
}

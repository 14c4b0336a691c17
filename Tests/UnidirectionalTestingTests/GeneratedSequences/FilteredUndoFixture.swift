import Testing
import Unidirectional
import UnidirectionalTesting

/// A todo list whose delete works on the visible rows and can be undone. The bug: the undo puts the todo back at its
/// row in the *filtered* list — the wrong place once a hidden todo comes before it. It takes an undo after a delete
/// after a filter; the fix remembers the todo's place in the whole list.
enum FilteredUndoFixture {
  struct Todo: Equatable, Identifiable, Sendable {
    let id: Int
    var title: String
    var isDone = false
  }
  enum Filter: Equatable, Sendable { case all, active, done }

  struct Todos: Reducer {
    struct State: Equatable {
      var todos = [Todo(id: 0, title: "Milk", isDone: true), Todo(id: 1, title: "Eggs")]
      var filter = Filter.all
      var deleted: (todo: Todo, index: Int)?
      var nextID = 2

      var visible: [Todo] {
        todos.filter { filter == .all || (filter == .done) == $0.isDone }
      }

      static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.todos == rhs.todos && lhs.filter == rhs.filter && lhs.deleted?.todo == rhs.deleted?.todo
          && lhs.deleted?.index == rhs.deleted?.index && lhs.nextID == rhs.nextID
      }
    }
    enum Action: Equatable, Sendable {
      case add(String), toggle(Int), filter(Filter), deleteRow(Int), undo
    }
    let isFixed: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .add(title):
        state.todos.append(Todo(id: state.nextID, title: title))
        state.nextID += 1
      case let .toggle(id):
        if let index = state.todos.firstIndex(where: { $0.id == id }) { state.todos[index].isDone.toggle() }
      case let .filter(filter):
        state.filter = filter
      case let .deleteRow(row):
        let visible = state.visible
        guard visible.indices.contains(row), let index = state.todos.firstIndex(of: visible[row]) else { break }
        state.deleted = (state.todos.remove(at: index), isFixed ? index : row)
      case .undo:
        guard let deleted = state.deleted else { break }
        state.todos.insert(deleted.todo, at: min(deleted.index, state.todos.count))
        state.deleted = nil
      }
      return .none
    }
  }

  /// The list as a user expects it: what was deleted comes back where it was.
  struct Model {
    var todos = Todos.State().todos
    var filter = Filter.all
    var deleted: (todo: Todo, index: Int)?
    var nextID = 2

    var visible: [Todo] { todos.filter { filter == .all || (filter == .done) == $0.isDone } }

    mutating func apply(_ step: GeneratedStep<Todos.Action>) {
      guard case let .send(action) = step else { return }
      switch action {
      case let .add(title):
        todos.append(Todo(id: nextID, title: title))
        nextID += 1
      case let .toggle(id):
        if let index = todos.firstIndex(where: { $0.id == id }) { todos[index].isDone.toggle() }
      case let .filter(filter):
        self.filter = filter
      case let .deleteRow(row):
        guard visible.indices.contains(row), let index = todos.firstIndex(of: visible[row]) else { break }
        deleted = (todos.remove(at: index), index)
      case .undo:
        if let deleted { todos.insert(deleted.todo, at: deleted.index) }
        deleted = nil
      }
    }
  }

  static var actions: ActionGenerator<Todos.State, Todos.Action> {
    ActionGenerator { state in
      [
        ActionChoice(weight: 3, ["Bread", "Jam"].map(Todos.Action.add)),
        ActionChoice(weight: 2, state.todos.map { Todos.Action.toggle($0.id) }),
        ActionChoice(weight: 2, [Filter.all, .active, .done].map(Todos.Action.filter)),
        ActionChoice(weight: 3, state.visible.indices.map(Todos.Action.deleteRow)),
        ActionChoice(weight: 2, .undo),
      ]
    }
  }

  static func explore(
    fixed: Bool, _ sequences: ActionSequences, replaying pin: String? = nil, reporter: TestReporter
  ) async -> ActionExplorationReport {
    await exploreActions(sequences, generating: actions, model: Model(), replaying: pin, reporter: reporter) {
      TestStore(initialState: Todos.State()) { Todos(isFixed: fixed) }
    } update: { model, step in
      model.apply(step)
    } check: { state, model in
      #expect(state.todos == model.todos, "the list is not what the user's steps made it")
    }
  }
}

import Testing
import Unidirectional
import UnidirectionalTesting

// `send` and `receive` by case path, each TCA spelling as one expression: `receive(\.response)` is
// `receive(Action.response)`, `receive(\.child.response)` is `receive(CasePath(Action.child,
// Child.Action.response))`, `send(\.destination.edit.binding.title, "x")` is `send(CasePath(Action.destination,
// Destination.Action.edit).binding(\.title), "x")`, `send(\.todos[id: id].binding.description, "x")` is
// `send(CasePath(Action.todos)[id: id].binding(\.description), "x")`. Ported from TCA's `TestStoreTests`
// (`testCasePathReceive_*`) and `BindingTests` (nested binding sends).

private struct Todo: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var description = ""
    var isComplete = false
  }
  enum Action: BindableAction, Equatable, Sendable {
    case binding(BindingAction<State>)
    case delegate(Delegate)
    enum Delegate: Equatable, Sendable { case completed(Int) }
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.isComplete) where state.isComplete:
        return .send(.delegate(.completed(state.id)))
      case .binding, .delegate:
        return .none
      }
    }
  }
}

private struct Edit: Reducer {
  struct State: Equatable, Sendable { var title = "" }
  enum Action: BindableAction, Equatable, Sendable {
    case binding(BindingAction<State>)
    case response(String)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.title):
        return .send(.response(state.title.uppercased()))
      case .binding:
        return .none
      case let .response(title):
        state.title = title
        return .none
      }
    }
  }
}

/// TCA's `@Reducer enum Destination { case edit(Edit) }`, written out.
private struct Destination: Reducer {
  enum State: Equatable, CasePathable { case edit(Edit.State) }
  enum Action: Equatable, Sendable { case edit(Edit.Action) }

  var body: some ReducerOf<Self> {
    Scope(state: State.edit, action: Action.edit) { Edit() }
  }
}

private struct Todos: Reducer {
  struct State: Equatable {
    var todos: IdentifiedArrayOf<Todo.State> = [Todo.State(id: 1), Todo.State(id: 2)]
    @PresentationState var destination: Destination.State?
    var completed: [Int] = []
  }
  enum Action: Equatable, Sendable {
    case todos(IdentifiedActionOf<Todo>)
    case destination(PresentationAction<Destination.Action>)
    case editTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .todos(.element(id: _, action: .delegate(.completed(id)))):
        state.completed.append(id)
        return .none
      case .editTapped:
        state.destination = .edit(Edit.State())
        return .none
      case .todos, .destination:
        return .none
      }
    }
    .forEach(\.todos, action: Action.todos) { Todo() }
    .ifLet(\.$destination, action: Action.destination) { Destination() }
  }
}

/// An action that is not `Equatable` (its payload holds an error), as TCA's `testCasePathReceive_NonEquatable`.
private struct Fetch: Reducer {
  struct State: Equatable { var number = 0 }
  enum Action: Sendable {
    case tap
    case response(Result<Int, any Error>)
    case number(Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .tap:
        return .run { send in send(.response(.success(42))) }
      case let .response(.success(number)):
        return .send(.number(number))
      case .response(.failure):
        return .none
      case let .number(number):
        state.number = number
        return .none
      }
    }
  }
}

@MainActor
@Suite struct TestStoreCasePathTests {
  @Test func receiveByConstructor() async {
    let store = TestStore(initialState: Fetch.State()) { Fetch() }
    await store.send(.tap)
    await store.receive(Fetch.Action.response)
    await store.receive(Fetch.Action.number, 42) { $0.number = 42 }
  }

  @Test func receiveTwoCasesDeep() async {
    let store = TestStore(initialState: Fetch.State()) { Fetch() }
    await store.send(.tap)
    await store.receive(CasePath(Fetch.Action.response, Result.success))
    await store.receive(CasePath(Fetch.Action.number)) { $0.number = 42 }
  }

  @Test func receivingAnotherCaseFails() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Fetch.State(), reducer: { Fetch() }, reporter: failures.reporter)
    await store.send(.tap)
    await store.receive(Fetch.Action.number)
    #expect(failures.messages.count == 1)
    #expect(failures.messages.first?.contains("Received unexpected action") == true, "\(failures.messages)")
    await store.skipReceivedActions()
  }

  @Test func aNestedBindingSentAsOneExpression() async {
    let store = TestStore(initialState: Todos.State()) { Todos() }
    await store.send(.editTapped) { $0.destination = .edit(Edit.State()) }
    // TCA: await store.send(\.destination.edit.binding.title, "Milk")
    await store.send(CasePath(Todos.Action.destination, Destination.Action.edit).binding(\.title), "Milk") {
      $0.destination?.modify(Destination.State.edit) { $0.title = "Milk" }
    }
    // TCA: await store.receive(\.destination.edit.response) { … }
    await store.receive(CasePath(Todos.Action.destination, Destination.Action.edit, Edit.Action.response)) {
      $0.$destination[case: CasePath(Destination.State.edit)]?.title = "MILK"
    }
    // TCA: await store.receive(\.destination.presented.edit.response, "…")
    await store.send(CasePath(Todos.Action.destination, Destination.Action.edit).binding(\.title), "Eggs") {
      $0.destination = .edit(Edit.State(title: "Eggs"))
    }
    await store.receive(
      CasePath(Todos.Action.destination, PresentationAction.presented, Destination.Action.edit)
        .appending(Edit.Action.response), "EGGS"
    ) {
      $0.destination = .edit(Edit.State(title: "EGGS"))
    }
  }

  @Test func aBindingOfOneElementByID() async {
    let store = TestStore(initialState: Todos.State()) { Todos() }
    // TCA: await store.send(\.todos[id: 2].binding.description, "Milk")
    await store.send(CasePath(Todos.Action.todos)[id: 2].binding(\.description), "Milk") {
      $0.todos[id: 2]?.description = "Milk"
    }
    await store.send(CasePath(Todos.Action.todos)[id: 1].binding(\.isComplete), true) {
      $0.todos[id: 1]?.isComplete = true
    }
    // TCA: await store.receive(\.todos[id: 1].delegate.completed)
    await store.receive(CasePath(Todos.Action.todos)[id: 1].appending(Todo.Action.delegate)) { $0.completed = [1] }
  }

  @Test func sendByCasePathEmbedsTheValue() async {
    let store = TestStore(initialState: Fetch.State()) { Fetch() }
    await store.send(CasePath(Fetch.Action.number), 7) { $0.number = 7 }
  }
}

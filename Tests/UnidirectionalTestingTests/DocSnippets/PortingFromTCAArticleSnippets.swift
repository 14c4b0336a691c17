// swift-format-ignore-file
// The "Porting from TCA" article's code (Sources/Unidirectional/Unidirectional.docc/PortingFromTCA.md), compiled and
// run here; Scripts/tests/test_doc_snippets.py checks that the article shows it verbatim. Not reformatted by
// swift-format, so that the article and this file stay the same text.
import Testing
import Unidirectional
import UnidirectionalTesting

struct ChecklistItem: Reducer {
  struct State: Equatable, Identifiable { let id: Int; var title = "" }
  enum Action: BindableAction, Equatable { case binding(BindingAction<State>) }
  var body: some ReducerOf<Self> { BindingReducer() }
}

struct ItemEditor: Reducer {
  struct State: Equatable { var title = "" }
  enum Action: BindableAction, Equatable { case binding(BindingAction<State>), delegate(Delegate) }
  enum Delegate: Equatable { case titleChanged(String) }
  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      guard case .binding(\.title) = action else { return .none }
      return .send(.delegate(.titleChanged(state.title)))
    }
  }
}

// TCA: @Reducer enum Destination { case edit(ItemEditor) }
struct ChecklistDestination: Reducer {
  enum State: Equatable, CasePathable { case edit(ItemEditor.State) }
  enum Action: Equatable { case edit(ItemEditor.Action) }
  var body: some ReducerOf<Self> {
    Scope(state: State.edit, action: Action.edit) { ItemEditor() }
  }
}

struct Checklist: Reducer {
  struct State: Equatable {
    var items: IdentifiedArrayOf<ChecklistItem.State> = []
    @PresentationState var destination: ChecklistDestination.State?
  }
  enum Action: Equatable {
    case items(IdentifiedActionOf<ChecklistItem>)
    case destination(PresentationAction<ChecklistDestination.Action>)
    case editTapped(id: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .editTapped(id):
        state.destination = .edit(ItemEditor.State(title: state.items[id: id]?.title ?? ""))
        return .none
      case .items, .destination:
        return .none
      }
    }
    .forEach(\.items, action: Action.items) { ChecklistItem() }           // TCA: action: \.items
    .ifLet(\.$destination, action: Action.destination) { ChecklistDestination() }
  }
}

@MainActor
@Suite struct PortingFromTCAArticleSnippets {
  @Test func nestedSendsAndReceivesAsOneExpression() async {
    let store = TestStore(initialState: Checklist.State(items: [ChecklistItem.State(id: 1)])) { Checklist() }
    // TCA: await store.send(\.items[id: 1].binding.title, "Milk") { … }
    await store.send(CasePath(Checklist.Action.items)[id: 1].binding(\.title), "Milk") {
      $0.items[id: 1]?.title = "Milk"
    }
    await store.send(.editTapped(id: 1)) { $0.destination = .edit(ItemEditor.State(title: "Milk")) }
    // TCA: await store.send(\.destination.edit.binding.title, "Eggs") { … }
    await store.send(CasePath(Checklist.Action.destination, ChecklistDestination.Action.edit).binding(\.title), "Eggs") {
      $0.destination?.modify(ChecklistDestination.State.edit) { $0.title = "Eggs" }
    }
    // TCA: await store.receive(\.destination.edit.delegate.titleChanged, "Eggs")
    await store.receive(
      CasePath(Checklist.Action.destination, ChecklistDestination.Action.edit, ItemEditor.Action.delegate)
        .appending(ItemEditor.Delegate.titleChanged), "Eggs")
  }
}

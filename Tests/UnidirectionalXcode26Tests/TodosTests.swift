import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

/// The todos feature driven the three ways an app does — a `TestStore`, a `Store` with a scoped child, a
/// `MainActorStore` for views — from a target with Xcode 26's settings (every test here runs on the main actor).
struct TodosTests {
  @Test func addEditAndToggleThroughForEachIfLetAndBindings() async {
    let store = TestStore(initialState: Todos.State()) {
      Todos()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    let id = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
    await store.send(.addTapped) { $0.todos = [Todo.State(id: id)] }
    await store.send(CasePath(Todos.Action.todos)[id: id].binding(\.title), "Milk") { $0.todos[id: id]?.title = "Milk" }
    await store.send(.editTapped(id)) { $0.editing = Todo.State(id: id, title: "Milk") }
    await store.send(.editing(.toggleTapped)) { $0.editing?.isDone = true }
    await store.send(.doneEditingTapped) {
      $0.todos[id: id]?.isDone = true
      $0.editing = nil
    }
  }

  @Test func aScopedChildStoreOfAStoreSendsToItsElement() {
    let store: StoreOf<Todos> = Store(initialState: Todos.State()) {
      Todos()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    store.send(.addTapped)
    let id = store.state.todos[0].id
    store.send(.editTapped(id))
    let editing = store.scope(state: \.editing, action: Todos.Action.editing)
    editing?.send(.binding(.set(\.title, "Bread")))
    #expect(store.state.editing?.title == "Bread")
    #expect(store.state.todos[id: id]?.title == "")
  }

  @Test func aMainActorStoreShowsWhatItSentAtOnce() {
    let store = MainActorStore(initialState: Todos.State()) {
      Todos()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    store.send(.addTapped)
    store.send(.addTapped)
    #expect(store.todos.count == 2)
    let rows = store.scope(state: \.todos, action: CasePath(Todos.Action.todos))
    rows[1].send(.toggleTapped)
    #expect(store.todos.map(\.isDone) == [false, true])
  }
}

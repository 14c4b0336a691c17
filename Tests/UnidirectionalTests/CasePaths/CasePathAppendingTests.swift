import Testing
import Unidirectional

// "This case of this case of this action" as one expression: the constructors composed, TCA's `\.a.b.c`. Ported
// from swift-case-paths' `appending` tests and TCA's nested case key path tests (`\.child.response`,
// `\.destination.edit`, `\.rows[id:]`, `\.path[id:]`, `\.binding.title` after a nested case).

private enum Delegate: Equatable, Sendable { case saved(String), cancelled }

private struct Edit {
  struct State: Equatable, Sendable { var title = "" }
  enum Action: BindableAction, Equatable, Sendable {
    case binding(BindingAction<State>)
    case delegate(Delegate)
    case response(Result<Int, Failure>)
  }
}

private struct Failure: Error, Equatable {}

private enum Destination: Equatable, Sendable { case edit(Edit.Action), other(Int) }

private enum Row: Equatable, Sendable { case toggle, rename(String) }

private enum Action: Equatable, Sendable {
  case child(Edit.Action)
  case destination(PresentationAction<Destination>)
  case rows(IdentifiedAction<Int, Row>)
  case row(id: Int, action: Row)
  case path(StackAction<Int, Destination>)
  case tap
}

@Suite struct CasePathAppendingTests {
  @Test func twoCasesDeep() {
    let response = CasePath(Action.child, Edit.Action.response)
    #expect(response.extract(.child(.response(.success(1)))) == .success(1))
    #expect(response.extract(.child(.delegate(.cancelled))) == nil)
    #expect(response.extract(.tap) == nil)
    #expect(response.embed(.success(2)) == .child(.response(.success(2))))
  }

  @Test func threeCasesDeep() {
    let saved = CasePath(Action.child, Edit.Action.delegate, Delegate.saved)
    #expect(saved.extract(.child(.delegate(.saved("x")))) == "x")
    #expect(saved.extract(.child(.delegate(.cancelled))) == nil)
    #expect(saved.embed("y") == .child(.delegate(.saved("y"))))
    let success = CasePath(Action.child, Edit.Action.response, Result.success)
    #expect(success.extract(.child(.response(.success(3)))) == 3)
    #expect(success.extract(.child(.response(.failure(Failure())))) == nil)
  }

  @Test func throughAPresentedDestinationWithOrWithoutPresented() {
    let edit = CasePath(Action.destination, Destination.edit)
    let explicit = CasePath(Action.destination, PresentationAction.presented, Destination.edit)
    let action = Action.destination(.presented(.edit(.delegate(.cancelled))))
    #expect(edit.extract(action) == .delegate(.cancelled))
    #expect(explicit.extract(action) == .delegate(.cancelled))
    #expect(edit.extract(.destination(.dismiss)) == nil)
    #expect(edit.extract(.destination(.presented(.other(1)))) == nil)
    #expect(edit.embed(.delegate(.cancelled)) == action)
    let appended = CasePath(Action.destination).appending(Destination.edit).appending(Edit.Action.delegate)
    #expect(appended.extract(action) == .cancelled)
  }

  @Test func appendingAHandWrittenPath() {
    let other = CasePath(Destination.other) { if case let .other(value) = $0 { value } else { nil } }
    let path = CasePath(Action.destination).appending(PresentationAction.presented).appending(path: other)
    #expect(path.extract(.destination(.presented(.other(7)))) == 7)
    #expect(path.embed(8) == .destination(.presented(.other(8))))
  }

  @Test func oneElementOfACollectionByID() {
    let second = CasePath(Action.rows)[id: 2]
    #expect(second.extract(.rows(.element(id: 2, action: .toggle))) == .toggle)
    #expect(second.extract(.rows(.element(id: 1, action: .toggle))) == nil)
    #expect(second.embed(.toggle) == .rows(.element(id: 2, action: .toggle)))
    let rename = CasePath(Action.rows)[id: 2].appending(Row.rename)
    #expect(rename.extract(.rows(.element(id: 2, action: .rename("a")))) == "a")
    let labelled = CasePath(Action.row)[id: 5].appending(Row.rename)
    #expect(labelled.extract(.row(id: 5, action: .rename("b"))) == "b")
    #expect(labelled.extract(.row(id: 4, action: .rename("b"))) == nil)
    #expect(labelled.embed("c") == .row(id: 5, action: .rename("c")))
  }

  @Test func oneElementOfAStackByID() {
    let top = CasePath(Action.path)[id: 0].appending(Destination.other)
    #expect(top.extract(.path(.element(id: 0, action: .other(1)))) == 1)
    #expect(top.extract(.path(.element(id: 1, action: .other(1)))) == nil)
    #expect(top.extract(.path(.popFrom(id: 0))) == nil)
    #expect(top.embed(2) == .path(.element(id: 0, action: .other(2))))
  }

  @Test func aBindingOfANestedBindableAction() {
    let title = CasePath(Action.destination, Destination.edit).binding(\.title)
    #expect(title.embed("Milk") == .destination(.presented(.edit(.binding(.set(\.title, "Milk"))))))
    #expect(title.extract(.destination(.presented(.edit(.binding(.set(\.title, "Eggs")))))) == "Eggs")
    #expect(title.extract(.destination(.presented(.edit(.delegate(.cancelled))))) == nil)
    let renamed = CasePath(Action.child).binding(\.title)
    #expect(renamed.extract(.child(.binding(.set(\.title, "x")))) == "x")
  }
}

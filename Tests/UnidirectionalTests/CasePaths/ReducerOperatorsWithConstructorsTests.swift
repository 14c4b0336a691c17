import Testing
import Unidirectional
import UnidirectionalTesting

// The reducer operators given a case's constructor where TCA takes a case key path: `Scope(state: \.child, action:
// Action.child)`, TCA's unlabelled `Scope(\.child, action:)`, `ifLet`, `forEach` over `IdentifiedActionOf` and a
// stack, `ifCaseLet`, and `ifLet(\.alert, action:)` over a plain optional alert. Each feature is written as its TCA
// original, with `Action.x` for `\.x`.

private struct Counter: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    var id = 0
    var count = 0
  }
  enum Action: Equatable, Sendable { case increment, incrementLater, incremented }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment, .incremented:
        state.count += 1
        return .none
      case .incrementLater:
        return .send(.incremented)
      }
    }
  }
}

private struct Parent: Reducer {
  struct State: Equatable {
    var child = Counter.State()
    var other = Counter.State()
    var optional: Counter.State?
    @PresentationState var sheet: Counter.State?
    var alert: AlertState<Action.Alert>?
    var rows: IdentifiedArrayOf<Counter.State> = [Counter.State(id: 1), Counter.State(id: 2)]
    var path = StackState<Counter.State>()
    var confirmed = false
  }
  enum Action: Equatable, Sendable {
    case child(Counter.Action)
    case other(Counter.Action)
    case optional(Counter.Action)
    case sheet(PresentationAction<Counter.Action>)
    case alert(Alert)
    case rows(IdentifiedActionOf<Counter>)
    case path(StackActionOf<Counter>)
    case deleteTapped
    enum Alert: Equatable, Sendable { case confirm }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: Action.child) { Counter() }
    Scope(\.other, action: Action.other) { Counter() }
    Reduce { state, action in
      switch action {
      case .deleteTapped:
        state.alert = AlertState(
          title: "Delete?", buttons: [ButtonState(role: .destructive, action: .confirm, label: "Delete")])
        return .none
      case .alert(.confirm):
        state.confirmed = true
        return .none
      default:
        return .none
      }
    }
    .ifLet(\.optional, action: Action.optional) { Counter() }
    .ifLet(\.$sheet, action: Action.sheet) { Counter() }
    .ifLet(\.alert, action: Action.alert)
    .forEach(\.rows, action: Action.rows) { Counter() }
    .forEach(\.path, action: Action.path) { Counter() }
  }
}

private struct Session: Reducer {
  enum State: Equatable {
    case loggedIn(Counter.State)
    case loggedOut(Counter.State)
  }
  enum Action: Equatable, Sendable {
    case loggedIn(Counter.Action)
    case loggedOut(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: State.loggedOut, action: Action.loggedOut) { Counter() }
    Reduce { _, _ in .none }
      .ifCaseLet(State.loggedIn, action: Action.loggedIn) { Counter() }
  }
}

@MainActor
@Suite struct ReducerOperatorsWithConstructorsTests {
  @Test func scopeByConstructorLabelledOrNot() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.child(.increment)) { $0.child.count = 1 }
    await store.send(.other(.incrementLater))
    await store.receive(.other(.incremented)) { $0.other.count = 1 }
  }

  @Test func ifLetByConstructor() async {
    var state = Parent.State()
    state.optional = Counter.State()
    state.sheet = Counter.State()
    let store = TestStore(initialState: state) { Parent() }
    await store.send(.optional(.increment)) { $0.optional?.count = 1 }
    await store.send(.sheet(.presented(.incrementLater)))
    await store.receive(.sheet(.presented(.incremented))) { $0.sheet?.count = 1 }
    await store.send(.sheet(.dismiss)) { $0.sheet = nil }
  }

  @Test func aPlainOptionalAlertIsDismissedByItsAction() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.deleteTapped) {
      $0.alert = AlertState(
        title: "Delete?", buttons: [ButtonState(role: .destructive, action: .confirm, label: "Delete")])
    }
    await store.send(.alert(.confirm)) {
      $0.alert = nil
      $0.confirmed = true
    }
  }

  @Test func forEachOverIdentifiedActionsByConstructor() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.rows(.element(id: 2, action: .increment))) { $0.rows[id: 2]?.count = 1 }
    await store.send(.rows(.element(id: 1, action: .incrementLater)))
    await store.receive(.rows(.element(id: 1, action: .incremented))) { $0.rows[id: 1]?.count = 1 }
  }

  @Test func forEachOverAStackByConstructor() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.path(.push(id: 0, state: Counter.State()))) { $0.path.append(Counter.State()) }
    await store.send(.path(.element(id: 0, action: .increment))) { $0.path[id: 0]?.count = 1 }
    await store.send(.path(.popFrom(id: 0))) { $0.path = StackState() }
  }

  @Test func enumStateByConstructors() async {
    let store = TestStore(initialState: Session.State.loggedIn(Counter.State())) { Session() }
    await store.send(.loggedIn(.incrementLater))
    await store.receive(.loggedIn(.incremented)) { $0 = .loggedIn(Counter.State(count: 1)) }
  }

  @Test func aScopeToAnEnumCaseByConstructorTakesItsCase() async {
    let store = TestStore(initialState: Session.State.loggedOut(Counter.State())) { Session() }
    await store.send(.loggedOut(.increment)) { $0 = .loggedOut(Counter.State(count: 1)) }
  }
}

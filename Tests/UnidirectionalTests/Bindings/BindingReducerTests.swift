import Unidirectional
import UnidirectionalTesting
import XCTest

/// A sign-up form: fields of several types, a nested one, an optional one, validation that reacts to two fields.
private struct SignUp: Reducer {
  struct State: Equatable {
    var email = ""
    var password = ""
    var age: Int?
    var address = Address()
    var isValid = false
    /// The email as the reducer after `BindingReducer` saw it, and as a reducer before it saw it.
    var emailSeenAfter = ""
    var emailSeenBefore = ""

    struct Address: Equatable {
      var city = ""
    }
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case submitTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .binding(\.email) = action { state.emailSeenBefore = state.email }
      return .none
    }
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.email):
        state.emailSeenAfter = state.email
        state.isValid = state.email.contains("@") && !state.password.isEmpty
        return .none
      case .binding(\.password):
        state.isValid = state.email.contains("@") && !state.password.isEmpty
        return .none
      case .binding, .submitTapped:
        return .none
      }
    }
  }
}

/// What `BindingReducer` does: writes each binding to the state, before or after the feature's own logic,
/// and nothing else.
final class BindingReducerTests: XCTestCase {
  func testEachBindingWritesItsFieldAndTheFeatureReactsToTheField() async {
    let store = TestStore(initialState: SignUp.State()) { SignUp() }
    await store.send(.binding(.set(\.email, "blob@pointfree.co"))) {
      $0.email = "blob@pointfree.co"
      $0.emailSeenAfter = "blob@pointfree.co"
    }
    await store.send(.set(\.password, "hunter2")) {
      $0.password = "hunter2"
      $0.isValid = true
    }
    await store.send(.set(\.age, 42)) { $0.age = 42 }
    await store.send(.set(\.age, nil)) { $0.age = nil }
    await store.send(.set(\.address.city, "Paris")) { $0.address.city = "Paris" }
    await store.send(.submitTapped)
  }

  func testAReducerBeforeTheBindingReducerSeesTheStateBeforeTheWrite() async {
    let store = TestStore(initialState: SignUp.State(email: "old@example.com")) { SignUp() }
    await store.send(.set(\.email, "new@example.com")) {
      $0.email = "new@example.com"
      $0.emailSeenBefore = "old@example.com"
      $0.emailSeenAfter = "new@example.com"
    }
  }

  func testABindingOfTheWholeStateReplacesIt() {
    var state = SignUp.State(email: "a@b.c")
    let replacement = SignUp.State(password: "x", isValid: true)
    _ = BindingReducer<SignUp.State, SignUp.Action, SignUp.Action>()
      .reduce(into: &state, action: .set(\.self, replacement))
    XCTAssertEqual(state, replacement)
  }

  func testOtherActionsChangeNothing() {
    var state = SignUp.State(email: "a@b.c")
    _ = BindingReducer<SignUp.State, SignUp.Action, SignUp.Action>().reduce(into: &state, action: .submitTapped)
    XCTAssertEqual(state, SignUp.State(email: "a@b.c"))
  }

  func testTheViewActionFormAppliesOnlyBindingsOfTheViewCase() {
    struct State: Equatable { var title = "" }
    enum Action: Equatable {
      case view(View)
      case titleFromServer(String)
      enum View: BindableAction, Equatable { case binding(BindingAction<State>) }
      static let viewCase = CasePath(Action.view) { if case let .view(action) = $0 { action } else { nil } }
    }
    let reducer = BindingReducer(action: Action.viewCase)
    var state = State()
    _ = reducer.reduce(into: &state, action: .view(.set(\.title, "Groceries")))
    XCTAssertEqual(state.title, "Groceries")
    _ = reducer.reduce(into: &state, action: .titleFromServer("Chores"))
    XCTAssertEqual(state.title, "Groceries")
  }

  func testTheViewActionFormGivenTheViewCasesConstructor() {
    struct State: Equatable { var title = "" }
    enum Action: Equatable, Sendable {
      case view(View)
      case titleFromServer(String)
      enum View: BindableAction, Equatable { case binding(BindingAction<State>) }
    }
    let reducer = BindingReducer(action: Action.view)  // TCA: BindingReducer(action: \.view)
    var state = State()
    _ = reducer.reduce(into: &state, action: .view(.set(\.title, "Groceries")))
    XCTAssertEqual(state.title, "Groceries")
    _ = reducer.reduce(into: &state, action: .titleFromServer("Chores"))
    XCTAssertEqual(state.title, "Groceries")
  }

  func testALiveStoreAppliesBindings() {
    let store = Store(initialState: SignUp.State()) { SignUp() }
    store.send(.set(\.email, "blob@pointfree.co"))
    store.send(.set(\.password, "hunter2"))
    XCTAssertEqual(store.state.email, "blob@pointfree.co")
    XCTAssertTrue(store.state.isValid)
  }
}

import Unidirectional
import UnidirectionalTesting
import XCTest

// TCA's binding tests that need no SwiftUI, in this library's spelling: `@BindingState var x` becomes a plain
// property and `\.$x` becomes `\.x`; view stores become `Store`/`TestStore` state reads.
// Ported from swift-composable-architecture (d34c1dfe7a):
//   Tests/ComposableArchitectureTests/Reducers/BindingReducerTests.swift (class BindingTests): testEquality,
//     testNestedBindingState, testBindingActionUpdatesRespectsPatternMatching, testMatching (4 of 6; not
//     testViewEquality and testNestedBindingViewState, which test ViewStore's @BindingViewState projection);
//   Tests/ComposableArchitectureTests/BindableStoreTests.swift: testTestStoreBindings,
//     testTestStoreBindings_ViewAction (2 of 3, their BindingViewStore checks as state reads; not
//     testBindableStore, which only compiles SwiftUI views);
//   Examples/CaseStudies/SwiftUICaseStudiesTests/01-GettingStarted-BindingBasicsTests.swift: BindingFormTests.basics.

private struct BindingTest: Reducer {
  struct State: Equatable {
    var nested = Nested()

    struct Nested: Equatable {
      var field = ""
    }
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(.set(\.nested, State.Nested(field: "special"))):
        state.nested.field += "*"
        return .none
      case .binding(\.nested):
        state.nested.field += "!"
        return .none
      case .binding:
        return .none
      }
    }
  }
}

final class TCABindingPortTests: XCTestCase {
  func testEquality() {
    struct State {
      var count = 0
    }
    XCTAssertEqual(
      BindingAction<State>.set(\.count, 1),
      BindingAction<State>.set(\.count, 1)
    )
    XCTAssertNotEqual(
      BindingAction<State>.set(\.count, 1),
      BindingAction<State>.set(\.count, 2)
    )
  }

  /// TCA writes `viewStore.$nested.field.wrappedValue = "Hello"`: the binding sends the whole `nested` value.
  func testNestedBindingState() {
    let store = Store(initialState: BindingTest.State()) { BindingTest() }

    var nested = store.state.nested
    nested.field = "Hello"
    store.send(.binding(.set(\.nested, nested)))

    XCTAssertEqual(store.state, .init(nested: .init(field: "Hello!")))
  }

  func testBindingActionUpdatesRespectsPatternMatching() async {
    let testStore = TestStore(
      initialState: BindingTest.State(nested: BindingTest.State.Nested(field: ""))
    ) {
      BindingTest()
    }

    await testStore.send(.binding(.set(\.nested, BindingTest.State.Nested(field: "special")))) {
      $0.nested = BindingTest.State.Nested(field: "special*")
    }
    await testStore.send(.binding(.set(\.nested, BindingTest.State.Nested(field: "Hello")))) {
      $0.nested = BindingTest.State.Nested(field: "Hello!")
    }
  }

  struct TestMatching {
    struct CounterState {
      var count = 0
    }
    enum CounterAction: BindableAction {
      case binding(BindingAction<CounterState>)
    }
  }

  /// TCA: `action[case: \.binding.$count]`.
  func testMatching() {
    let action = TestMatching.CounterAction.binding(.set(\.count, 42))
    XCTAssertEqual(CasePath<TestMatching.CounterAction, Int>.binding(\.count).extract(action), 42)
  }

  @MainActor
  func testTestStoreBindings() async {
    struct LoginFeature: Reducer {
      struct State: Equatable {
        var email = ""
        public var isFormValid = false
        public var isRequestInFlight = false
        var password = ""
      }
      enum Action: Equatable, BindableAction {
        case binding(BindingAction<State>)
        case loginButtonTapped
      }
      var body: some ReducerOf<Self> {
        BindingReducer()
        Reduce { state, action in
          switch action {
          case .binding:
            state.isFormValid = !state.email.isEmpty && !state.password.isEmpty
            return .none
          case .loginButtonTapped:
            state.isRequestInFlight = true
            return .none  // NB: Login request
          }
        }
      }
    }

    // TCA's LoginViewState, derived from the state rather than from a BindingViewStore.
    func isFormDisabled(_ state: LoginFeature.State) -> Bool { state.isRequestInFlight }
    func isLoginButtonDisabled(_ state: LoginFeature.State) -> Bool {
      !state.isFormValid || state.isRequestInFlight
    }

    let store = TestStore(initialState: LoginFeature.State()) {
      LoginFeature()
    }
    await store.send(.set(\.email, "blob@pointfree.co")) {
      $0.email = "blob@pointfree.co"
    }
    XCTAssertFalse(isFormDisabled(store.state))
    XCTAssertTrue(isLoginButtonDisabled(store.state))
    await store.send(.set(\.password, "blob123")) {
      $0.password = "blob123"
      $0.isFormValid = true
    }
    XCTAssertFalse(isFormDisabled(store.state))
    XCTAssertFalse(isLoginButtonDisabled(store.state))
    await store.send(.loginButtonTapped) {
      $0.isRequestInFlight = true
    }
    XCTAssertTrue(isFormDisabled(store.state))
    XCTAssertTrue(isLoginButtonDisabled(store.state))
  }

  @MainActor
  func testTestStoreBindings_ViewAction() async {
    struct LoginFeature: Reducer {
      struct State: Equatable {
        var email = ""
        public var isFormValid = false
        public var isRequestInFlight = false
        var password = ""
      }
      enum Action: Equatable {
        case view(View)
        enum View: Equatable, BindableAction {
          case binding(BindingAction<State>)
          case loginButtonTapped
        }
        static let viewCase = CasePath(Action.view) { if case let .view(action) = $0 { action } else { nil } }
      }
      var body: some ReducerOf<Self> {
        BindingReducer(action: Action.viewCase)
        Reduce { state, action in
          switch action {
          case .view(.binding):
            state.isFormValid = !state.email.isEmpty && !state.password.isEmpty
            return .none
          case .view(.loginButtonTapped):
            state.isRequestInFlight = true
            return .none  // NB: Login request
          }
        }
      }
    }

    func isFormDisabled(_ state: LoginFeature.State) -> Bool { state.isRequestInFlight }
    func isLoginButtonDisabled(_ state: LoginFeature.State) -> Bool {
      !state.isFormValid || state.isRequestInFlight
    }

    let store = TestStore(initialState: LoginFeature.State()) {
      LoginFeature()
    }
    await store.send(.view(.set(\.email, "blob@pointfree.co"))) {
      $0.email = "blob@pointfree.co"
    }
    XCTAssertFalse(isFormDisabled(store.state))
    XCTAssertTrue(isLoginButtonDisabled(store.state))
    await store.send(.view(.set(\.password, "blob123"))) {
      $0.password = "blob123"
      $0.isFormValid = true
    }
    XCTAssertFalse(isFormDisabled(store.state))
    XCTAssertFalse(isLoginButtonDisabled(store.state))
    await store.send(.view(.loginButtonTapped)) {
      $0.isRequestInFlight = true
    }
    XCTAssertTrue(isFormDisabled(store.state))
    XCTAssertTrue(isLoginButtonDisabled(store.state))
  }

  // Examples/CaseStudies: BindingFormTests.basics, with the case study's BindingForm reducer.
  @MainActor
  func testBindingFormBasics() async {
    let store = TestStore(initialState: BindingForm.State()) {
      BindingForm()
    }

    await store.send(\.binding.sliderValue, 2) {
      $0.sliderValue = 2
    }
    await store.send(\.binding.stepCount, 1) {
      $0.sliderValue = 1
      $0.stepCount = 1
    }
    await store.send(\.binding.text, "Blob") {
      $0.text = "Blob"
    }
    await store.send(\.binding.toggleIsOn, true) {
      $0.toggleIsOn = true
    }
    await store.send(.resetButtonTapped) {
      $0 = BindingForm.State(sliderValue: 5, stepCount: 10, text: "", toggleIsOn: false)
    }
  }
}

/// The case study's form (01-GettingStarted-Bindings-Forms.swift), without its view.
private struct BindingForm: Reducer {
  struct State: Equatable {
    var sliderValue = 5.0
    var stepCount = 10
    var text = ""
    var toggleIsOn = false
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
    case resetButtonTapped
  }

  var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.stepCount):
        state.sliderValue = .minimum(state.sliderValue, Double(state.stepCount))
        return .none

      case .binding:
        return .none

      case .resetButtonTapped:
        state = State()
        return .none
      }
    }
  }
}

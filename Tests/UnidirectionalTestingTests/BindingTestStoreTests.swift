import Testing
import Unidirectional
import UnidirectionalTesting

/// A to-do form: fields written by bindings, a save button enabled by the title, and a suggestion that an effect
/// writes back into the fields through binding actions.
private struct TodoForm: Reducer {
  struct State: Equatable {
    var title = ""
    var notes = ""
    var isSaveEnabled = false
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case suggestTapped
  }

  @Dependency(\.clock) var clock

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.title):
        state.isSaveEnabled = !state.title.isEmpty
        return .none
      case .binding:
        return .none
      case .suggestTapped:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          send(.set(\.title, "Buy milk"))
          send(.set(\.notes, "2 litres"))
        }
      }
    }
  }
}

/// The form with its bindings in a view action, as `BindingReducer(action:)` serves them.
private struct ViewActionForm: Reducer {
  struct State: Equatable { var title = "" }
  enum Action: Equatable {
    case view(View)
    case loaded
    enum View: BindableAction, Equatable {
      case binding(BindingAction<State>)
      case onAppear
    }
    static let viewCase = CasePath(Action.view) { if case let .view(action) = $0 { action } else { nil } }
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: Action.viewCase)
    Reduce { _, action in
      if case .view(.onAppear) = action { return .send(.view(.set(\.title, "Draft"))) }
      return .none
    }
  }
}

/// Bindings through the TestStore as a TCA suite writes them: `@MainActor`, Swift 6 mode, closures that capture
/// main-actor state.
@MainActor
@Suite struct BindingTestStoreTests {
  /// Main-actor state the assertion closures capture: not Sendable.
  final class Tally {
    var assertions = 0
  }

  /// The clock of the suite's stores (a new suite value, so a new clock, for each test).
  let clock = TestClock()

  /// A store whose suggestion effect has sent its two binding actions, waiting to be received.
  private func storeWithASuggestion(
    reporter: TestReporter = .automatic
  ) async -> TestStoreOf<TodoForm> {
    let store = TestStore(
      initialState: TodoForm.State(), reducer: { TodoForm() }, withDependencies: { [clock] in $0.clock = clock },
      reporter: reporter)
    await suggest(in: store)
    return store
  }

  private func suggest(in store: TestStoreOf<TodoForm>) async {
    await store.send(.suggestTapped)
    await clock.advance(by: .seconds(1))
  }

  @Test func sendsABindingInEachSpelling() async {
    let tally = Tally()
    let store = TestStore(initialState: TodoForm.State()) { TodoForm() }
    await store.send(.binding(.set(\.title, "B"))) {
      tally.assertions += 1
      $0.title = "B"
      $0.isSaveEnabled = true
    }
    await store.send(.set(\.title, "Bu")) {
      tally.assertions += 1
      $0.title = "Bu"
    }
    await store.send(\.binding.title, "") {
      tally.assertions += 1
      $0.title = ""
      $0.isSaveEnabled = false
    }
    await store.send(\.binding.notes, "2 litres") {
      tally.assertions += 1
      $0.notes = "2 litres"
    }
    #expect(tally.assertions == 4)
  }

  @Test func receivesBindingsByFieldWithOrWithoutTheirValue() async {
    let store = await storeWithASuggestion()
    await store.receive(\.binding.title) {
      $0.title = "Buy milk"
      $0.isSaveEnabled = true
    }
    await store.receive(\.binding.notes, "2 litres") { $0.notes = "2 litres" }
    await store.finish()
  }

  @Test func receivesBindingsByCasePathAndByAction() async {
    let store = await storeWithASuggestion()
    await store.receive(.binding(\.title), "Buy milk") {
      $0.title = "Buy milk"
      $0.isSaveEnabled = true
    }
    await store.receive(.binding(.set(\.notes, "2 litres"))) { $0.notes = "2 litres" }

    await suggest(in: store)
    await store.receive(.binding(\.title))
    await store.receive(.set(\.notes, "2 litres"))
  }

  @Test func receivesABindingOfAViewAction() async {
    let store = TestStore(initialState: ViewActionForm.State()) { ViewActionForm() }
    await store.send(.view(.onAppear))
    await store.receive(ViewActionForm.Action.viewCase.binding(\.title), "Draft") { $0.title = "Draft" }
  }

  @Test func aBindingOfAnotherFieldFailsNamingTheFieldItWrote() async {
    let failures = TestFailures()
    let store = await storeWithASuggestion(reporter: failures.reporter)
    await store.receive(\.binding.notes) { $0.notes = "2 litres" }
    #expect(
      failures.messages == [
        #"""
        Received unexpected action before this one: …

          TodoForm.Action.binding(.set(\TodoForm.State.title, "Buy milk"))

        It does not match the predicate.
        """#
      ])
    await store.skipReceivedActions(strict: false)
  }

  @Test func aBindingOfAnotherValueFailsWithADiffOfTheValues() async {
    let failures = TestFailures()
    let store = await storeWithASuggestion(reporter: failures.reporter)
    await store.receive(\.binding.title, "Buy eggs") { $0.title = "Buy eggs" }
    #expect(
      failures.messages == [
        #"""
        Received unexpected action: …

        - TodoForm.Action.binding(.set(\TodoForm.State.title, "Buy eggs"))
        + TodoForm.Action.binding(.set(\TodoForm.State.title, "Buy milk"))

        (Expected: −, Received: +)
        """#
      ])
    await store.skipReceivedActions(strict: false)
  }
}

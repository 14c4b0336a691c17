import Testing
import Unidirectional
import UnidirectionalTesting

/// A state that is not `Equatable` — it holds a closure, a class instance and a value of a type without `==` — is
/// tested exhaustively: the TestStore compares the states' structural dumps, and a wrong assertion shows the same
/// diff as for an `Equatable` state.
@Suite struct NonEquatableStateTests {
  /// Not `Equatable`, and not ours to make so.
  struct Draft {
    var text = ""
    var words: [String] { text.split(separator: " ").map(String.init) }
  }

  final class Session {
    let user: String
    init(user: String) { self.user = user }
  }

  struct Editor: Reducer {
    struct State {
      var draft = Draft()
      var session: Session?
      var format: (String) -> String = { $0 }
      var saved: [String] = []
    }
    enum Action: Equatable, Sendable {
      case typed(String), signIn(String), save, saved(String)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .typed(text):
        state.draft.text = text
        return .none
      case let .signIn(user):
        state.session = Session(user: user)
        return .none
      case .save:
        let text = state.format(state.draft.text)
        return .send(.saved(text))
      case let .saved(text):
        state.saved.append(text)
        state.draft = Draft()
        return .none
      }
    }
  }

  private func makeStore(reporter: TestReporter = .automatic) -> TestStore<Editor.State, Editor.Action> {
    TestStore(
      initialState: Editor.State(format: { $0.uppercased() }), reducer: { Editor() }, reporter: reporter)
  }

  @Test func aStateHoldingAClosureAndAReferenceIsTestedExhaustively() async {
    let store = makeStore()
    await store.send(.signIn("blob")) { $0.session = Session(user: "blob") }
    await store.send(.typed("hi there")) { $0.draft.text = "hi there" }
    await store.send(.save)
    await store.receive(.saved("HI THERE")) {
      $0.saved = ["HI THERE"]
      $0.draft = Draft()
    }
    #expect(store.state.session?.user == "blob")
  }

  @Test func aWrongAssertionFailsWithTheDiffOfTheDumps() async {
    let failures = TestFailures()
    let store = makeStore(reporter: failures.reporter)
    await store.send(.typed("hi")) { $0.draft.text = "ho" }
    #expect(
      failures.messages == [
        """
        A state change does not match expectation: …

          NonEquatableStateTests.Editor.State(
            draft: NonEquatableStateTests.Draft(
        -     text: "ho"
        +     text: "hi"
            ),
            … (3 unchanged)
          )

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func aReferenceWithOtherFieldsIsADifference() async {
    let failures = TestFailures()
    let store = makeStore(reporter: failures.reporter)
    await store.send(.signIn("blob")) { $0.session = Session(user: "blob jr") }
    #expect(failures.messages.count == 1)
    let message = failures.messages.first ?? ""
    #expect(message.contains("-     user: \"blob jr\"\n+     user: \"blob\""), "\(message)")
  }

  @Test func anUnassertedChangeFails() async {
    let failures = TestFailures()
    let store = makeStore(reporter: failures.reporter)
    await store.send(.signIn("blob"))
    #expect(failures.messages.count == 1)
    let message = failures.messages.first ?? ""
    #expect(message.contains("-   session: nil,\n+   session: NonEquatableStateTests.Session("), "\(message)")
  }

  @Test func anAssertionThatChangesNothingFails() async {
    let failures = TestFailures()
    let store = makeStore(reporter: failures.reporter)
    await store.send(.typed("")) { $0.draft.text = "" }
    #expect(failures.messages.count == 1)
    #expect(failures.messages.first?.hasPrefix("Expected state to change, but no change occurred.") == true)
  }

  @Test func aNonExhaustiveStoreChecksOnlyWhatIsAsserted() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.signIn("blob"))
    await store.send(.typed("hi")) { $0.draft.text = "hi" }
    await store.send(.save)
    await store.skipReceivedActions()
    #expect(store.state.saved == ["HI"])
  }
}

// swift-format-ignore-file
// The "Testing" article's section on state that is not Equatable (Sources/UnidirectionalTesting/
// UnidirectionalTesting.docc/Testing.md), compiled and run here; Scripts/tests/test_doc_snippets.py checks that the
// article shows it verbatim. Not reformatted by swift-format, so that the article and this file stay the same text.
import Testing
import Unidirectional
import UnidirectionalTesting

struct Editor: Reducer {
  struct State {                       // not Equatable: it holds a closure
    var draft = ""
    var format: (String) -> String = { $0 }
    var saved: [String] = []
  }
  enum Action: Equatable { case typed(String), saveTapped }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .typed(text):
      state.draft = text
    case .saveTapped:
      state.saved.append(state.format(state.draft))
      state.draft = ""
    }
    return .none
  }
}

@Suite struct TestingArticleNonEquatableSnippets {
  @Test func saving() async {
    let store = TestStore(initialState: Editor.State(format: { $0.uppercased() })) { Editor() }
    await store.send(.typed("hi")) { $0.draft = "hi" }
    await store.send(.saveTapped) {
      $0.saved = ["HI"]
      $0.draft = ""
    }
  }

  /// The failure the article shows, as the store reports it.
  @Test func aWrongAssertionShowsTheDiff() async {
    let failures = TestFailures()
    let store = TestStore(initialState: Editor.State(), reducer: { Editor() }, reporter: failures.reporter)
    await store.send(.typed("hi")) { $0.draft = "ho" }
    #expect(failures.messages == [
      """
      A state change does not match expectation: …

        Editor.State(
      -   draft: "ho",
      +   draft: "hi",
          format: (Function),
          saved: []
        )

      (Expected: −, Actual: +)
      """
    ])
  }
}

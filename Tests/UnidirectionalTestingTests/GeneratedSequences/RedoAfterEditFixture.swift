import Testing
import Unidirectional
import UnidirectionalTesting

/// A text field with undo and redo. The bug: typing after an undo keeps the redo history, so redo brings back text
/// the new typing replaced. It takes an edit, an undo, another edit and a redo; the fix clears the redo history on
/// every edit.
enum RedoAfterEditFixture {
  struct Editor: Reducer {
    struct State: Equatable {
      var text = ""
      var undoHistory: [String] = []
      var redoHistory: [String] = []
    }
    enum Action: Equatable, Sendable {
      case typed(String), undoTapped, redoTapped
    }
    let isFixed: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .typed(text):
        state.undoHistory.append(state.text)
        state.text = text
        if isFixed { state.redoHistory = [] }
      case .undoTapped:
        guard let previous = state.undoHistory.popLast() else { break }
        state.redoHistory.append(state.text)
        state.text = previous
      case .redoTapped:
        guard let next = state.redoHistory.popLast() else { break }
        state.undoHistory.append(state.text)
        state.text = next
      }
      return .none
    }
  }

  /// The texts a user went through, and where they stand: undo and redo move along them; an edit drops what lay
  /// ahead.
  struct Model {
    var texts = [""]
    var position = 0

    mutating func apply(_ step: GeneratedStep<Editor.Action>) {
      guard case let .send(action) = step else { return }
      switch action {
      case let .typed(text):
        texts = Array(texts.prefix(position + 1)) + [text]
        position += 1
      case .undoTapped:
        position = max(position - 1, 0)
      case .redoTapped:
        position = min(position + 1, texts.count - 1)
      }
    }
  }

  static var actions: ActionGenerator<Editor.State, Editor.Action> {
    ActionGenerator { _ in
      [
        ActionChoice(weight: 3, ["a", "b", "c"].map(Editor.Action.typed)),
        ActionChoice(weight: 2, .undoTapped),
        ActionChoice(weight: 2, .redoTapped),
      ]
    }
  }

  static func explore(
    fixed: Bool, _ sequences: ActionSequences, replaying pin: String? = nil, reporter: TestReporter
  ) async -> ActionExplorationReport {
    await exploreActions(sequences, generating: actions, model: Model(), replaying: pin, reporter: reporter) {
      TestStore(initialState: Editor.State()) { Editor(isFixed: fixed) }
    } update: { model, step in
      model.apply(step)
    } check: { state, model in
      #expect(state.text == model.texts[model.position], "the text is \"\(state.text)\"")
    }
  }
}

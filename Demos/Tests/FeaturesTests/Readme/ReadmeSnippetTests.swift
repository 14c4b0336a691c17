// swift-format-ignore-file
import Features
import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

/// The "Composing features" and "Navigation" articles' snippets (Sources/Unidirectional/Unidirectional.docc/), kept
/// compiling and passing here, verbatim (Scripts/tests/test_doc_snippets.py checks it; inside a suite so their names
/// don't clash with the real features).
@Suite struct ReadmeSnippets {
  public struct ArchiveFeature: Reducer {
    public struct State: Equatable, Sendable {
      public var upload = ImageUploadFeature.State(maxCount: 10, mediaType: .archive)
      public var mediaIDs: [MediaID] = []
    }
    public enum Action: Equatable, Sendable {
      case upload(ImageUploadFeature.Action)
      public static let uploadCase = CasePath(Action.upload) { if case let .upload(action) = $0 { action } else { nil } }
    }

    public var body: some Reducer<State, Action> {
      Scope(state: \.upload, action: Action.uploadCase) { ImageUploadFeature() }
      Reduce { state, action in
        if case let .upload(.delegate(.uploadCompleted(ids))) = action { state.mediaIDs.append(contentsOf: ids) }
        return .none
      }
    }
  }

  // The "Navigation" snippet, with the two features it presents.
  struct Message: Reducer {
    struct State: Equatable, Sendable { var title: String }
    enum Action: Equatable, Sendable { case markRead }
    func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
  }

  struct Compose: Reducer {
    struct State: Equatable, Sendable { var text = "" }
    enum Action: Equatable, Sendable {
      case delegate(Delegate)
      enum Delegate: Equatable, Sendable { case sent, discardRequested }
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
  }

  struct Inbox: Reducer {
    struct State: Equatable, Sendable {
      var path = StackState<Message.State>()                 // a navigation stack: ids 0, 1, 2, … in tests
      @PresentationState var compose: Compose.State?         // a sheet
      @PresentationState var alert: AlertState<Action.Alert>?
    }
    enum Action: Equatable, Sendable {
      case path(StackActionOf<Message>)
      case compose(PresentationAction<Compose.Action>)
      case alert(PresentationAction<Alert>)
      case composeTapped, messageTapped(Message.State)
      enum Alert: Equatable, Sendable { case discard }
      static let pathCase = CasePath(Action.path) { if case let .path(a) = $0 { a } else { nil } }
      static let composeCase = CasePath(Action.compose) { if case let .compose(a) = $0 { a } else { nil } }
      static let alertCase = CasePath(Action.alert) { if case let .alert(a) = $0 { a } else { nil } }
    }

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .composeTapped: state.compose = Compose.State()
        case let .messageTapped(message): state.path.append(message)
        case .compose(.presented(.delegate(.sent))): state.compose = nil      // dismisses, cancels its effects
        case .compose(.presented(.delegate(.discardRequested))):
          state.alert = AlertState(title: "Discard the draft?", buttons: [
            ButtonState(role: .destructive, action: .discard, label: "Discard"), ButtonState(role: .cancel, label: "Keep"),
          ])
        case .alert(.presented(.discard)): state.compose = nil
        case .path, .compose, .alert: break
        }
        return .none
      }
      .forEach(\.path, action: Action.pathCase) { Message() }
      .ifLet(\.$compose, action: Action.composeCase) { Compose() }
      .ifLet(\.$alert, action: Action.alertCase)                             // an alert dismisses itself
    }
  }

  @Test func theInboxPushesPresentsAndDismisses() async {
    let store = TestStore(initialState: Inbox.State()) { Inbox() }
    await store.send(.messageTapped(Message.State(title: "Hi"))) { $0.path[id: 0] = Message.State(title: "Hi") }
    await store.send(.path(.popFrom(id: 0))) { $0.path = StackState() }
    await store.send(.composeTapped) { $0.compose = Compose.State() }
    await store.send(.compose(.presented(.delegate(.discardRequested)))) {
      $0.alert = AlertState(title: "Discard the draft?", buttons: [
        ButtonState(role: .destructive, action: .discard, label: "Discard"), ButtonState(role: .cancel, label: "Keep"),
      ])
    }
    await store.send(.alert(.presented(.discard))) {
      $0.alert = nil
      $0.compose = nil
    }
    await store.send(.composeTapped) { $0.compose = Compose.State() }
    await store.send(.compose(.presented(.delegate(.sent)))) { $0.compose = nil }
  }

  @Test func theParentKeepsTheIDsItsChildDelegates() async {
    let store = TestStore(initialState: ArchiveFeature.State()) { ArchiveFeature() }
    await store.send(.upload(.delegate(.uploadCompleted(["m1", "m2"])))) { $0.mediaIDs = ["m1", "m2"] }
  }
}

import Unidirectional
import UnidirectionalTesting
import XCTest

/// An alert or a dialog case of a destination enum dismisses itself after its button's action, with no
/// `EphemeralState` conformance to write, as in TCA (before: the destination stayed presented, and the test failed
/// with a bare state mismatch).
final class AlertInDestinationTests: XCTestCase {
  struct Editor: Reducer {
    struct State: Equatable, Sendable { var title = "" }
    enum Action: Equatable, Sendable { case titleChanged(String) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      if case let .titleChanged(title) = action { state.title = title }
      return .none
    }
  }

  struct Destination: Reducer {
    enum State: Equatable, Sendable {
      case alert(AlertState<Action.Alert>)
      case dialog(ConfirmationDialogState<Action.Alert>)
      case edit(Editor.State)
      static let editCase = CasePath(State.edit) { if case let .edit(state) = $0 { state } else { nil } }
    }
    enum Action: Equatable, Sendable {
      case alert(Alert)
      case dialog(Alert)
      case edit(Editor.Action)
      enum Alert: Equatable, Sendable { case confirmDeletion }
      static let editCase = CasePath(Action.edit) { if case let .edit(action) = $0 { action } else { nil } }
    }
    var body: some Reducer<State, Action> {
      Scope(state: State.editCase, action: Action.editCase) { Editor() }
    }
  }

  struct Reminders: Reducer {
    static let deleteAlert = AlertState<Destination.Action.Alert>(
      title: "Delete?", buttons: [ButtonState(role: .destructive, action: .confirmDeletion, label: "Delete")])
    static let deleteDialog = ConfirmationDialogState<Destination.Action.Alert>(
      title: "Delete?", buttons: [ButtonState(role: .destructive, action: .confirmDeletion, label: "Delete")])

    struct State: Equatable, Sendable {
      @PresentationState var destination: Destination.State?
      var isDeleted = false
    }
    enum Action: Equatable, Sendable {
      case deleteTapped, deleteFromMenuTapped, editTapped
      case destination(PresentationAction<Destination.Action>)
      static let destinationCase = CasePath(Action.destination) {
        if case let .destination(action) = $0 { action } else { nil }
      }
    }

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .deleteTapped:
          state.destination = .alert(Self.deleteAlert)
        case .deleteFromMenuTapped:
          state.destination = .dialog(Self.deleteDialog)
        case .editTapped:
          state.destination = .edit(Editor.State())
        case .destination(.presented(.alert(.confirmDeletion))), .destination(.presented(.dialog(.confirmDeletion))):
          state.isDeleted = true
        case .destination:
          break
        }
        return .none
      }
      .ifLet(\.$destination, action: Action.destinationCase) { Destination() }
    }
  }

  func testAnAlertCaseDismissesItselfAfterItsButtonsAction() async {
    let store = TestStore(initialState: Reminders.State()) { Reminders() }
    await store.send(.deleteTapped) { $0.destination = .alert(Reminders.deleteAlert) }
    await store.send(.destination(.presented(.alert(.confirmDeletion)))) {
      $0.destination = nil
      $0.isDeleted = true
    }
  }

  func testADialogCaseDismissesItselfAfterItsButtonsAction() async {
    let store = TestStore(initialState: Reminders.State()) { Reminders() }
    await store.send(.deleteFromMenuTapped) { $0.destination = .dialog(Reminders.deleteDialog) }
    await store.send(.destination(.presented(.dialog(.confirmDeletion)))) {
      $0.destination = nil
      $0.isDeleted = true
    }
  }

  func testAFeatureCaseStaysPresentedAfterItsActions() async {
    let store = TestStore(initialState: Reminders.State()) { Reminders() }
    await store.send(.editTapped) { $0.destination = .edit(Editor.State()) }
    await store.send(.destination(.presented(.edit(.titleChanged("Milk"))))) {
      $0.destination = .edit(Editor.State(title: "Milk"))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }
}

import Foundation
import Unidirectional

/// A list of reminders kept in a file: add and edit them in a form sheet, complete them (the list keeps open ones
/// first), delete them after an alert. The worked example of shared state, bindings and a sorted list.
///
/// ```swift
/// let store = Store(initialState: RemindersFeature.State()) { RemindersFeature() }
/// store.send(.addTapped)                                          // presents the form
/// store.send(.destination(.presented(.form(.binding(.set(\.reminder.title, "Milk"))))))
/// store.send(.saveTapped)                                          // the file is written
/// ```
public struct RemindersFeature: Reducer, Sendable {
  public struct State: Equatable, Sendable {
    /// Every reminder, in the order the list shows them, shared with the file that keeps them.
    @Shared public var reminders: IdentifiedArrayOf<Reminder>
    @PresentationState public var destination: Destination.State?

    /// The reminders of `.reminders` (or of another shared value: the one a host keeps in its own file).
    public init(reminders: Shared<IdentifiedArrayOf<Reminder>> = Shared(.reminders)) {
      self._reminders = reminders
    }
  }

  public enum Action: Equatable, Sendable {
    case addTapped
    case editTapped(Reminder.ID)
    case completionToggled(Reminder.ID)
    case deleteTapped(Reminder.ID)
    case saveTapped
    case cancelTapped
    case destination(PresentationAction<Destination.Action>)

    public static let destinationCase = CasePath(Action.destination) {
      if case let .destination(action) = $0 { action } else { nil }
    }
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTapped:
        state.destination = .form(ReminderForm.State(reminder: Reminder(id: uuid())))
        return .none

      case let .editTapped(id):
        guard let reminder = state.reminders[id: id] else { return .none }
        state.destination = .form(ReminderForm.State(reminder: reminder))
        return .none

      case let .completionToggled(id):
        state.$reminders.withLock { reminders in
          reminders[id: id]?.isCompleted.toggle()
          reminders.sortForDisplay()
        }
        return .none

      case let .deleteTapped(id):
        guard let reminder = state.reminders[id: id] else { return .none }
        state.destination = .alert(.confirmDeletion(of: reminder))
        return .none

      case let .destination(.presented(.alert(.confirmDeletion(id)))):
        _ = state.$reminders.withLock { $0.remove(id: id) }
        return .none

      case .saveTapped:
        guard case let .form(form)? = state.destination, form.canSave else { return .none }
        state.$reminders.withLock { reminders in
          reminders.updateOrAppend(form.reminder)
          reminders.sortForDisplay()
        }
        state.destination = nil
        return .none

      case .cancelTapped:
        state.destination = nil
        return .none

      case .destination:
        return .none
      }
    }
    .ifLet(\.$destination, action: Action.destinationCase) { Destination() }
  }
}

extension RemindersFeature {
  /// What the list presents: the form sheet, or the alert that confirms a deletion.
  public struct Destination: Reducer, Sendable {
    public enum State: Equatable, Identifiable, Sendable {
      case form(ReminderForm.State)
      case alert(AlertState<Action.Alert>)

      public static let formCase = CasePath(State.form) { if case let .form(state) = $0 { state } else { nil } }

      /// The form's state while the form is presented (what a view scopes its sheet to).
      public var form: ReminderForm.State? {
        if case let .form(state) = self { state } else { nil }
      }

      public enum ID: Hashable, Sendable {
        case form(Reminder.ID)
        case alert(PresentationCounter.ID)
      }

      public var id: ID {
        switch self {
        case let .form(form): .form(form.reminder.id)
        case let .alert(alert): .alert(alert.id)
        }
      }
    }

    public enum Action: Equatable, Sendable {
      case form(ReminderForm.Action)
      case alert(Alert)

      public enum Alert: Equatable, Sendable {
        case confirmDeletion(Reminder.ID)
      }

      public static let formCase = CasePath(Action.form) { if case let .form(action) = $0 { action } else { nil } }
    }

    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: State.formCase, action: Action.formCase) { ReminderForm() }
    }
  }
}

extension AlertState where Action == RemindersFeature.Destination.Action.Alert {
  /// "Delete “Milk”?", with a destructive Delete and a Cancel.
  public static func confirmDeletion(of reminder: Reminder) -> Self {
    AlertState(
      title: "Delete “\(reminder.title)”?",
      buttons: [
        ButtonState(role: .destructive, action: .confirmDeletion(reminder.id), label: "Delete"),
        ButtonState(role: .cancel, label: "Cancel"),
      ])
  }
}

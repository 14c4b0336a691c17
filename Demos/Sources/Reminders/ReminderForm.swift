import Foundation
import Unidirectional

/// The form that adds or edits a reminder: each field is a binding, and the form says whether it can be saved.
///
/// ```swift
/// await store.send(\.binding.reminder, Reminder(id: UUID(0), title: "Milk")) {
///   $0.reminder.title = "Milk"
///   $0.canSave = true
/// }
/// ```
public struct ReminderForm: Reducer, Sendable {
  public struct State: Equatable, Sendable {
    public var reminder: Reminder
    /// Whether the title has something in it.
    public var canSave: Bool

    public init(reminder: Reminder) {
      self.reminder = reminder
      self.canSave = Self.isValid(reminder)
    }

    static func isValid(_ reminder: Reminder) -> Bool {
      !reminder.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }
  }

  public enum Action: BindableAction, Equatable, Sendable {
    case binding(BindingAction<State>)
    /// Flags or unflags the reminder (a toggle, not a field edit).
    case flagToggled

    public var binding: BindingAction<State>? {
      if case let .binding(action) = self { action } else { nil }
    }
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
      .onChange(of: \.reminder.title) { _, _ in
        Reduce { state, _ in
          state.canSave = State.isValid(state.reminder)
          return .none
        }
      }
    Reduce { state, action in
      switch action {
      case .flagToggled:
        state.reminder.isFlagged.toggle()
        return .none
      case .binding:
        return .none
      }
    }
  }
}

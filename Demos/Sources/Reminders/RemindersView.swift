#if canImport(SwiftUI)
  import SwiftUI
  import Unidirectional

  /// The reminders list as a SwiftUI host would show it: the view holds a ``MainActorStore`` and reads fields
  /// through it, so it is invalidated by the fields it read (the reminders, whether a form is open), not by every
  /// change of the store. Compiled where SwiftUI exists; the Linux build and `demo reminders` drive the same
  /// feature headlessly.
  ///
  /// ```swift
  /// RemindersView(store: Store(initialState: RemindersFeature.State()) { RemindersFeature() }.mainActorStore)
  /// ```
  public struct RemindersView: View {
    let store: MainActorStore<RemindersFeature.State, RemindersFeature.Action>

    public init(store: MainActorStore<RemindersFeature.State, RemindersFeature.Action>) {
      self.store = store
    }

    public var body: some View {
      NavigationStack {
        List(store.reminders) { reminder in
          HStack {
            Button(reminder.isCompleted ? "Done" : "Open") { _ = store.send(.completionToggled(reminder.id)) }
            Text(reminder.title)
            Spacer()
            if reminder.isFlagged { Image(systemName: "flag.fill") }
          }
          .contentShape(Rectangle())
          .onTapGesture { _ = store.send(.editTapped(reminder.id)) }
          .swipeActions { Button("Delete", role: .destructive) { _ = store.send(.deleteTapped(reminder.id)) } }
        }
        .navigationTitle("Reminders")
        .toolbar { Button("Add") { _ = store.send(.addTapped) } }
        .sheet(isPresented: isEditing) {
          if let form = formStore {
            NavigationStack {
              ReminderFormView(store: form)
                .toolbar {
                  Button("Cancel") { _ = store.send(.cancelTapped) }
                  Button("Save") { _ = store.send(.saveTapped) }
                }
            }
          }
        }
      }
    }

    /// The form's store while the destination is the form: nil (and the sheet closed) exactly when it is not.
    private var formStore: MainActorStore<ReminderForm.State, ReminderForm.Action>? {
      store.scope(
        state: \.destination?.form,
        action: { .destination(.presented(.form($0))) }
      )
    }

    /// Open while a form is presented; swiping the sheet away cancels, as the Cancel button does.
    private var isEditing: Binding<Bool> {
      Binding(
        get: { MainActor.assumeIsolated { formStore != nil } },
        set: { isPresented in if !isPresented { _ = store.send(.cancelTapped) } }
      )
    }
  }

  /// The form: each control reads and writes one field through ``MainActorStore/binding(_:)``.
  struct ReminderFormView: View {
    let store: MainActorStore<ReminderForm.State, ReminderForm.Action>

    var body: some View {
      Form {
        TextField("Title", text: store.binding(\.reminder.title))
        TextField("Notes", text: store.binding(\.reminder.notes))
        Toggle("Flagged", isOn: store.binding(\.reminder.isFlagged))
      }
    }
  }
#endif

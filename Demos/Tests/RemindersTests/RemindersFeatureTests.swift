import Foundation
import Observation
import Reminders
import Testing
import Unidirectional
import UnidirectionalTesting

/// The reminders list as a TCA team tests it: a `@MainActor` suite in Swift 6 mode, every state change asserted,
/// shared state and bindings included. Each test gets its own in-memory file for `.reminders`.
@MainActor
@Suite struct RemindersFeatureTests {
  let milk = Reminder(id: UUID(10), title: "Milk")
  let eggs = Reminder(id: UUID(11), title: "Eggs", isFlagged: true)

  @Test func addingAReminderThroughTheFormSavesItInTheList() async {
    let store = TestStore(initialState: RemindersFeature.State()) {
      RemindersFeature()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addTapped) {
      $0.destination = .form(ReminderForm.State(reminder: Reminder(id: UUID(0))))
    }
    await store.send(.destination(.presented(.form(.binding(.set(\.reminder.title, "Milk")))))) {
      $0.$destination[case: RemindersFeature.Destination.State.formCase]?.reminder.title = "Milk"
      $0.$destination[case: RemindersFeature.Destination.State.formCase]?.canSave = true
    }
    await store.send(.saveTapped) {
      $0.destination = nil
      $0.$reminders.withLock { $0 = [Reminder(id: UUID(0), title: "Milk")] }
    }
  }

  @Test func aFormWithAnEmptyTitleCannotBeSaved() async {
    let store = TestStore(initialState: RemindersFeature.State()) {
      RemindersFeature()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addTapped) {
      $0.destination = .form(ReminderForm.State(reminder: Reminder(id: UUID(0))))
    }
    await store.send(.destination(.presented(.form(.binding(.set(\.reminder.title, "   ")))))) {
      $0.$destination[case: RemindersFeature.Destination.State.formCase]?.reminder.title = "   "
    }
    await store.send(.saveTapped)
    await store.send(.cancelTapped) { $0.destination = nil }
  }

  @Test func completingAReminderMovesItAfterTheOpenOnes() async {
    @Shared(.reminders) var reminders = [milk, eggs]
    let store = TestStore(initialState: RemindersFeature.State()) { RemindersFeature() }
    await store.send(.completionToggled(eggs.id)) {
      $0.$reminders.withLock { reminders in
        reminders = [milk, eggs]
        reminders[id: eggs.id]?.isCompleted = true
        reminders.sortForDisplay()
      }
    }
    #expect(reminders.ids == [milk.id, eggs.id], "the test's own @Shared(.reminders) is the store's")
  }

  @Test func deletingAsksFirstAndTheAlertDismissesItself() async {
    @Shared(.reminders) var reminders = [eggs, milk]
    let store = TestStore(initialState: RemindersFeature.State()) { RemindersFeature() }
    await store.send(.deleteTapped(milk.id)) {
      $0.destination = .alert(.confirmDeletion(of: milk))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(milk.id))))) {
      $0.destination = nil
      $0.$reminders.withLock { _ = $0.remove(id: milk.id) }
    }
    #expect(reminders.ids == [eggs.id])
  }

  @Test func editingChangesTheReminderInPlace() async {
    @Shared(.reminders) var reminders = [eggs, milk]
    let store = TestStore(initialState: RemindersFeature.State()) { RemindersFeature() }
    await store.send(.editTapped(milk.id)) {
      $0.destination = .form(ReminderForm.State(reminder: milk))
    }
    await store.send(.destination(.presented(.form(.flagToggled)))) {
      $0.$destination[case: RemindersFeature.Destination.State.formCase]?.reminder.isFlagged = true
    }
    await store.send(.saveTapped) {
      $0.destination = nil
      $0.$reminders.withLock { reminders in
        reminders[id: milk.id]?.isFlagged = true
        reminders.sortForDisplay()
      }
    }
    #expect(reminders.map(\.title) == ["Eggs", "Milk"])
  }

  @Test func theRemindersAreKeptAsJSONInTheirFileAndLoadedFromIt() async throws {
    let files = InMemoryFileSystem()
    let store = TestStore(initialState: RemindersFeature.State()) {
      RemindersFeature()
    } withDependencies: {
      $0.defaultFileStorage = .inMemory(files)
      $0.uuid = .incrementing
    }
    await store.send(.addTapped) {
      $0.destination = .form(ReminderForm.State(reminder: Reminder(id: UUID(0))))
    }
    await store.send(.destination(.presented(.form(.binding(.set(\.reminder.title, "Milk")))))) {
      $0.$destination[case: RemindersFeature.Destination.State.formCase]?.reminder.title = "Milk"
      $0.$destination[case: RemindersFeature.Destination.State.formCase]?.canSave = true
    }
    await store.send(.saveTapped) {
      $0.destination = nil
      $0.$reminders.withLock { $0 = [Reminder(id: UUID(0), title: "Milk")] }
    }

    let saved = try JSONDecoder().decode(
      IdentifiedArrayOf<Reminder>.self, from: try #require(files[RemindersFile.defaultURL]))
    #expect(saved.map(\.title) == ["Milk"])

    // Another screen (a store of its own) made on the same files reads them.
    let reopened = withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      RemindersFeature.State()
    }
    #expect(reopened.reminders.map(\.title) == ["Milk"])
  }

  /// What `RemindersView` does on Apple platforms, on the main actor here: the sheet's store exists exactly while
  /// the form is presented, an observer of it learns of the presentation once, and the form's bindings write
  /// through to the list.
  @Test func theFormSheetIsShownExactlyWhileTheFormIsPresented() {
    let store = MainActorStore(initialState: RemindersFeature.State(reminders: Shared(value: [milk]))) {
      RemindersFeature()
    }
    func formStore() -> MainActorStore<ReminderForm.State, ReminderForm.Action>? {
      store.scope(state: \.destination?.form, action: { .destination(.presented(.form($0))) })
    }
    let presentations = LockIsolated(0)
    withObservationTracking {
      #expect(formStore() == nil)
    } onChange: {
      presentations.withLock { $0 += 1 }
    }

    store.send(.completionToggled(milk.id))
    #expect(presentations.value == 0)
    store.send(.editTapped(milk.id))
    #expect(presentations.value == 1)
    let form = formStore()
    #expect(form?.reminder.title == "Milk")
    form?.send(.binding(.set(\.reminder.title, "Oat milk")))
    #expect(formStore()?.reminder.title == "Oat milk")
    store.send(.saveTapped)
    #expect(formStore() == nil)
    #expect(store.reminders.map(\.title) == ["Oat milk"])
  }
}

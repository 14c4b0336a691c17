import Foundation
import Reminders
import Unidirectional

/// `demo reminders`: plays a user of ``RemindersFeature`` headlessly — adds reminders through the form's bindings,
/// completes one (the list re-sorts), deletes one after its alert — printing the list after each step. The list
/// lives in a JSON file: run it twice with the same `--file` and the second run starts from what the first left.
struct RemindersCommand: DemoCommand {
  static let name = "reminders"
  static let summary = "add, complete and delete reminders kept in a JSON file, printing the sorted list"
  static let synopsis = "demo reminders [OPTIONS]"
  static let usage = """
    --file PATH     the JSON file that keeps the list (default: reminders.json in a new temporary folder)
    """

  typealias RemindersStore = Store<RemindersFeature.State, RemindersFeature.Action>

  static func run(arguments: [String]) async -> Int32 {
    let file: URL
    do {
      let options = try OptionParser(arguments, valueOptions: ["--file"])
      guard options.positional.isEmpty else { throw UsageError("unexpected argument \(options.positional[0])") }
      file =
        options.values["--file"].map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory
        .appendingPathComponent("unidirectional-reminders-\(UUID().uuidString.lowercased())", isDirectory: true)
        .appendingPathComponent("reminders.json")
    } catch {
      return usageFailure(error)
    }

    let store = RemindersStore(initialState: RemindersFeature.State(reminders: Shared(.reminders(at: file)))) {
      RemindersFeature()
    } withDependencies: {
      $0.defaultFileStorage = .fileSystem
    }
    print("reminders: \(file.path)")
    printList(store, after: "loaded")

    let suffix = store.reminders.count == 0 ? "" : " (\(store.reminders.count + 1))"
    add("Buy milk\(suffix)", flagged: true, to: store)
    printList(store, after: "added a flagged reminder")
    add("Call the plumber\(suffix)", flagged: false, to: store)
    add("Water the plants\(suffix)", flagged: false, to: store)
    printList(store, after: "added two more")

    if let milk = store.reminders.first(where: { $0.title.hasPrefix("Buy milk") && !$0.isCompleted }) {
      store.send(.completionToggled(milk.id))
      printList(store, after: "completed “\(milk.title)”")
    }
    if let plants = store.reminders.first(where: { $0.title.hasPrefix("Water the plants") }) {
      store.send(.deleteTapped(plants.id))
      if case let .alert(alert)? = store.destination { print("alert: \(alert.title)") }
      store.send(.destination(.presented(.alert(.confirmDeletion(plants.id)))))
      printList(store, after: "deleted “\(plants.title)” (the alert dismissed itself)")
    }

    do {
      try await store.state.$reminders.save()
      let reloaded = try JSONDecoder().decode(IdentifiedArrayOf<Reminder>.self, from: Data(contentsOf: file))
      print("saved: \(reloaded.count) reminder\(reloaded.count == 1 ? "" : "s") in \(file.lastPathComponent)")
      return reloaded == store.reminders ? 0 : 1
    } catch {
      FileHandle.standardError.write(Data("demo reminders: \(error)\n".utf8))
      return 1
    }
  }

  /// Opens the form, types `title` through its title binding, flags it if asked, and saves.
  private static func add(_ title: String, flagged: Bool, to store: RemindersStore) {
    store.send(.addTapped)
    store.send(.destination(.presented(.form(.binding(.set(\.reminder.title, title))))))
    if flagged { store.send(.destination(.presented(.form(.flagToggled)))) }
    store.send(.saveTapped)
  }

  private static func printList(_ store: RemindersStore, after step: String) {
    print("\(step):")
    if store.reminders.isEmpty { print("  (no reminders)") }
    for reminder in store.reminders {
      let mark = reminder.isCompleted ? "[x]" : "[ ]"
      print("  \(mark) \(reminder.title)\(reminder.isFlagged ? " ⚑" : "")")
    }
  }
}

import Foundation
import Reminders
import Testing
import Unidirectional
import UnidirectionalTesting

/// `RemindersFeatureTests`' scenarios under the explorer: the feature starts no effect and its file is written
/// synchronously in tests, so each scenario has exactly one schedule — the explorer confirms there is nothing to
/// reorder rather than finding an order.
@MainActor
struct RemindersExploredTests {
  /// `addingAReminderThroughTheFormSavesItInTheList` and `deletingAsksFirstAndTheAlertDismissesItself`.
  static func addThenDelete() async {
    let store = TestStore(initialState: RemindersFeature.State()) {
      RemindersFeature()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    store.exhaustivity = .off
    await store.send(.addTapped)
    await store.send(.destination(.presented(.form(.binding(.set(\.reminder.title, "Milk"))))))
    await store.send(.saveTapped)
    await store.send(.deleteTapped(UUID(0)))
    await store.send(.destination(.presented(.alert(.confirmDeletion(UUID(0))))))
    await store.finish()
    #expect(store.state.reminders.isEmpty)
    #expect(store.state.destination == nil)
  }

  @Test func addThenDeleteHasOneSchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.addThenDelete() }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
    #expect(report.schedulesRun == 1, "no effect runs: nothing to reorder")
  }
}

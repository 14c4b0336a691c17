import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

/// `case row(id: Row.ID, action: Row.Action)` scoped with the case path Swift infers from the case constructor,
/// `CasePath(Action.row) { … }`, whose value is an unlabelled `(ID, Action)` tuple: `forEach` takes it as it is
/// (before, the call did not type-check, and the working spelling was only in `GalleryFeature.swift`).
final class ForEachLabelledCaseTests: XCTestCase {
  struct ReminderRow: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: UUID
      var isComplete = false
    }
    enum Action: Equatable, Sendable { case toggled }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.isComplete.toggle()
      return .none
    }
  }

  struct Reminders: Reducer {
    struct State: Equatable, Sendable {
      var reminders: IdentifiedArrayOf<ReminderRow.State> = []
    }
    enum Action: Equatable, Sendable {
      case row(id: ReminderRow.State.ID, action: ReminderRow.Action)
      static let rowCase = CasePath(Action.row) { if case let .row(id, action) = $0 { (id, action) } else { nil } }
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        state.reminders.sort { !$0.isComplete && $1.isComplete }
        return .none
      }
      .forEach(\.reminders, action: Action.rowCase) { ReminderRow() }
    }
  }

  func testAnUnlabelledCasePathFromALabelledCaseScopesEachRow() async {
    let first = ReminderRow.State(id: UUID(0))
    let second = ReminderRow.State(id: UUID(1))
    let store = TestStore(initialState: Reminders.State(reminders: [first, second])) { Reminders() }
    await store.send(.row(id: UUID(0), action: .toggled)) {
      $0.reminders = [second, ReminderRow.State(id: UUID(0), isComplete: true)]
    }
  }
}

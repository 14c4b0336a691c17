// swift-format-ignore-file
// Written by ActionLogTestWriter from the action log checklist-session.jsonl (a recorded session of Checklist).
// Regenerate, rather than edit: REGENERATE_EMITTED_TESTS=1 swift test --filter ActionLogTestWriterTests

import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

@Test func checklistSession() async throws {
  try await checklistSessionSteps(reducer: Checklist())
}

/// The recorded steps, run against `reducer`: the reducer that recorded them in the test above, a changed one
/// in other tests (which then fail at the first step that differs).
func checklistSessionSteps(
  reducer: some Reducer<Checklist.State, Checklist.Action>, reporter: TestReporter = .automatic
) async throws {
  let clock = TestClock()
  let initialState = try recordedInitialState(of: reducer)
  let store = TestStore(
    initialState: initialState, reducer: { reducer },
    withDependencies: {
      $0.clock = clock
      $0.uuid = .sequence([
        UUID(uuidString: "F50E51DF-D17C-430D-877F-294B3DE10D06")!,
        UUID(uuidString: "70EE4649-76E7-46E4-A2CB-F4071BBE30C0")!,
      ])
      $0.date = .sequence([
        Date(timeIntervalSinceReferenceDate: 817875093.0826151),
        Date(timeIntervalSinceReferenceDate: 817875093.1040194),
        Date(timeIntervalSinceReferenceDate: 817875093.1048573),
      ])
    }, reporter: reporter)

  await store.send(.draftChanged("Milk")) { $0.draft = "Milk" }
  await store.send(.addTapped) {
    try $0.$items.withLock {
      try $0.append(fromJSON(#"{"addedAt":817875093.0826151,"id":"F50E51DF-D17C-430D-877F-294B3DE10D06","isDone":false,"title":"Milk"}"#))
    }
    $0.draft = ""
  }
  await store.send(.draftChanged("Bread \"fresh\"")) { $0.draft = "Bread \"fresh\"" }
  await store.send(.addTapped) {
    try $0.$items.withLock {
      try $0.append(fromJSON(#"{"addedAt":817875093.1040194,"id":"70EE4649-76E7-46E4-A2CB-F4071BBE30C0","isDone":false,"title":"Bread \"fresh\""}"#))
    }
    $0.draft = ""
  }
  await store.send(.toggle(UUID(uuidString: "F50E51DF-D17C-430D-877F-294B3DE10D06")!)) {
    $0.$items.withLock { $0[0].isDone = true }
  }
  await store.send(.tag("groceries")) { $0.tags.insert("groceries") }
  await store.send(.filterChanged(.open)) { $0.filter = .open }
  await store.send(.syncTapped) { $0.sync = .syncing(count: 2) }
  await clock.advance(by: .seconds(2))
  await store.receive(.syncFinished(at: Date(timeIntervalSinceReferenceDate: 817875093.1048573))) {
    $0.sync = .synced(Date(timeIntervalSinceReferenceDate: 817875093.1048573))
  }
  await store.finish()
}

/// The state the recording started from.
private func recordedInitialState<R: Reducer>(of reducer: R) throws -> R.State where R.State: Decodable {
  try fromJSON(
    #"""
    {
      "draft": "",
      "filter": "all",
      "items": [],
      "tags": []
    }
    """#
  )
}

/// A value written as its recorded JSON: its type's initializers are not known to the writer.
private func fromJSON<T: Decodable>(_ json: String) throws -> T {
  try JSONDecoder().decode(T.self, from: Data(json.utf8))
}

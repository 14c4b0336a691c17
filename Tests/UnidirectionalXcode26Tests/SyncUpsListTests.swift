import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

/// TCA's SyncUps `SyncUpsListTests`, ported: the list's sync-ups are `@Shared(.syncUps)`, persisted to a file (in
/// memory, the test's own); adding one is a shared change asserted with `$0.$syncUps.withLock { … }`.
@Suite struct SyncUpsListTests {
  @Test func add() async throws {
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    var syncUp = SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))])
    await store.send(.addSyncUpButtonTapped) {
      $0.add = SyncUpForm.State(syncUp: syncUp)
    }

    syncUp.title = "Engineering"
    await store.send(.add(.presented(.setTitle("Engineering")))) {
      $0.add?.syncUp.title = "Engineering"
    }

    syncUp.attendees = [Attendee(id: UUID(2))]
    await store.send(.confirmAddSyncUpButtonTapped) {
      $0.add = nil
      $0.$syncUps.withLock { $0 = [syncUp] }
    }
  }

  @Test func addAndConfirmValidatesAttendees() async throws {
    let designID = try #require(UUID(uuidString: "deadbeef-dead-beef-dead-beefdeadbeef"))
    let store = TestStore(
      initialState: SyncUpsList.State(
        add: SyncUpForm.State(
          syncUp: SyncUp(
            id: designID, attendees: [Attendee(id: UUID(100), name: ""), Attendee(id: UUID(101), name: "    ")],
            title: "Design")))
    ) {
      SyncUpsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.confirmAddSyncUpButtonTapped) {
      $0.add = nil
      $0.$syncUps.withLock {
        $0 = [SyncUp(id: designID, attendees: [Attendee(id: UUID(0))], title: "Design")]
      }
    }
  }

  @Test func theListIsSavedToItsFile() async throws {
    let files = InMemoryFileSystem()
    let store = TestStore(initialState: SyncUpsList.State(add: SyncUpForm.State(syncUp: .mock))) {
      SyncUpsList()
    } withDependencies: {
      $0.defaultFileStorage = .inMemory(files)
    }
    await store.send(.confirmAddSyncUpButtonTapped) {
      $0.add = nil
      $0.$syncUps.withLock { $0 = [.mock] }
    }
    let saved = try JSONDecoder().decode(
      IdentifiedArrayOf<SyncUp>.self, from: try #require(files[URL(fileURLWithPath: "/documents/sync-ups.json")]))
    #expect(saved == [.mock])

    await store.send(.onDelete([0])) {
      $0.$syncUps.withLock { $0 = [] }
    }
  }
}

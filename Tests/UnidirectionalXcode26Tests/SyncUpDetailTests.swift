import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

/// TCA's SyncUps `SyncUpDetailTests`, ported (the tests of shared state; speech authorization is left out): the
/// detail holds one sync-up of the list as `@Shared var syncUp`; editing writes it back, deleting removes it from
/// the list through the list's own key.
@Suite struct SyncUpDetailTests {
  @Test func edit() async {
    var syncUp = SyncUp.mock
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: syncUp))) {
      SyncUpDetail()
    }

    await store.send(.editButtonTapped) {
      $0.edit = SyncUpForm.State(syncUp: syncUp)
    }

    syncUp.title = "Blob's Meeting"
    await store.send(.edit(.presented(.setTitle("Blob's Meeting")))) {
      $0.edit?.syncUp.title = "Blob's Meeting"
    }

    await store.send(.doneEditingButtonTapped) {
      $0.edit = nil
      $0.$syncUp.withLock { $0.title = "Blob's Meeting" }
    }
  }

  @Test func delete() async throws {
    let syncUp = SyncUp.mock
    @Shared(.syncUps) var syncUps = [syncUp]
    // As in TCA, the list's change is not part of this store's state, so the store cannot assert it: the test does.
    defer { #expect(syncUps == []) }

    let sharedSyncUp = try #require(Shared($syncUps[id: syncUp.id]))
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: sharedSyncUp)) {
      SyncUpDetail()
    }
    await store.send(.deleteButtonTapped) {
      $0.alert = SyncUpDetail.deleteAlert
    }
    await store.send(.alert(.presented(.confirmDeletion))) {
      $0.alert = nil
    }
    #expect(store.isDismissed)
  }

  @Test func startingAMeetingHandsTheSameSharedSyncUpToTheParent() async {
    let syncUp = Shared(value: SyncUp.mock)
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: syncUp)) {
      SyncUpDetail()
    }
    await store.send(.startMeetingButtonTapped)
    await store.receive(.delegate(.startMeeting(syncUp)))
  }
}

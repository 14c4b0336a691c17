import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

/// TCA's SyncUps `AppFeatureTests`, ported: the list and a detail pushed on the stack hold one sync-up (the detail
/// through `Shared($syncUps[id: id])`), so an edit or a deletion in the detail is what the list shows, and the test
/// asserts it once, through either.
@Suite struct AppFeatureTests {
  @Test func detailEdit() async throws {
    let syncUp = SyncUp.mock
    let store = try await pushingTheDetail(of: syncUp)
    await store.send(.path(.element(id: 0, action: .detail(.editButtonTapped)))) {
      $0.path[id: 0]?.modify(AppFeature.Path.State.detail) { $0.edit = SyncUpForm.State(syncUp: syncUp) }
    }
    await store.send(.path(.element(id: 0, action: .detail(.edit(.presented(.setTitle("Blob"))))))) {
      $0.path[id: 0]?.modify(AppFeature.Path.State.detail) { $0.edit?.syncUp.title = "Blob" }
    }
    await store.send(.path(.element(id: 0, action: .detail(.doneEditingButtonTapped)))) {
      $0.path[id: 0]?.modify(AppFeature.Path.State.detail) {
        $0.edit = nil
        $0.$syncUp.withLock { $0.title = "Blob" }
      }
    }
    .finish()
    #expect(store.state.syncUpsList.syncUps[id: syncUp.id]?.title == "Blob")
  }

  @Test func delete() async throws {
    let store = try await pushingTheDetail(of: .mock)
    await store.send(.path(.element(id: 0, action: .detail(.deleteButtonTapped)))) {
      $0.path[id: 0]?.modify(AppFeature.Path.State.detail) { $0.alert = SyncUpDetail.deleteAlert }
    }
    await store.send(.path(.element(id: 0, action: .detail(.alert(.presented(.confirmDeletion)))))) {
      $0.path[id: 0]?.modify(AppFeature.Path.State.detail) { $0.alert = nil }
      $0.syncUpsList.$syncUps.withLock { $0 = [] }
    }
    await store.receive(.path(.popFrom(id: 0))) {
      $0.path = StackState()
    }
  }

  @Test func recording() async {
    let syncUp = SyncUp(
      id: UUID(), attendees: [Attendee(id: UUID()), Attendee(id: UUID()), Attendee(id: UUID())],
      duration: .seconds(6))
    let sharedSyncUp = Shared(value: syncUp)
    let clock = TestClock()
    let store = TestStore(
      initialState: AppFeature.State(
        path: StackState([
          .detail(SyncUpDetail.State(syncUp: sharedSyncUp)),
          .record(RecordMeeting.State(syncUp: sharedSyncUp)),
        ]))
    ) {
      AppFeature()
    } withDependencies: {
      $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
      $0.clock = clock
      $0.uuid = .incrementing
    }

    // TCA's test runs the timer on an `ImmediateClock`; here an immediate clock never suspends a timer loop, so the
    // test advances a `TestClock` through the six seconds instead.
    await store.withExhaustivity(.off) {
      await store.send(.path(.element(id: 1, action: .record(.onTask))))
      await clock.advance(by: .seconds(6))
      await store.receive(.path(.popFrom(id: 1))) {
        #expect($0.path.count == 1)
      }
    }
    await store.finish()
    store.assert {
      $0.path[id: 0]?.modify(AppFeature.Path.State.detail) {
        $0.$syncUp.withLock {
          $0.meetings = [Meeting(id: UUID(0), date: Date(timeIntervalSince1970: 1_234_567_890), transcript: "")]
        }
      }
    }
  }

  @Test func startingAMeetingPushesTheRecordingScreenOnTheSameSyncUp() async throws {
    let syncUp = SyncUp.mock
    @Shared(.syncUps) var syncUps = [syncUp]
    let sharedSyncUp = try #require(Shared($syncUps[id: syncUp.id]))
    let store = TestStore(
      initialState: AppFeature.State(path: StackState([.detail(SyncUpDetail.State(syncUp: sharedSyncUp))]))
    ) {
      AppFeature()
    }
    await store.send(.path(.element(id: 0, action: .detail(.startMeetingButtonTapped))))
    await store.receive(.path(.element(id: 0, action: .detail(.delegate(.startMeeting(sharedSyncUp)))))) {
      $0.path[id: 1] = .record(RecordMeeting.State(syncUp: sharedSyncUp))
    }
  }

  /// The app with `syncUp` in its list, and the detail of that sync-up pushed on the stack: it holds the list's
  /// element, `Shared($syncUps[id: syncUp.id])`.
  private func pushingTheDetail(of syncUp: SyncUp) async throws -> TestStoreOf<AppFeature> {
    @Shared(.syncUps) var syncUps = [syncUp]
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    }
    let sharedSyncUp = try #require(Shared($syncUps[id: syncUp.id]))
    await store.send(.path(.push(id: 0, state: .detail(SyncUpDetail.State(syncUp: sharedSyncUp))))) {
      $0.path[id: 0] = .detail(SyncUpDetail.State(syncUp: sharedSyncUp))
    }
    return store
  }
}

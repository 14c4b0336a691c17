import Testing
import Unidirectional
import UnidirectionalTesting

/// A child's response arriving after the parent removed the child: the list loads every row's thumbnail in effects
/// of its own and routes each answer to its row; the user deletes a row while the thumbnails load, and the late
/// answer is addressed to a row that is gone — the "forEach received an action for the missing element" issue.
///
/// A row's own effects are cancelled when it is removed (see the last test): the race users meet is a response
/// the parent requested for the row.
@MainActor
struct ResponseAfterRowRemovedTests {
  struct Row: Reducer {
    struct State: Equatable, Identifiable {
      let id: String
      var thumbnail: String?
    }
    enum Action: Equatable { case load, thumbnailLoaded(String) }
    let thumbnail: @Sendable (String) async throws -> String

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .load:
        return .run { [id = state.id, thumbnail] send in send(.thumbnailLoaded(try await thumbnail(id))) }
      case let .thumbnailLoaded(thumbnail):
        state.thumbnail = thumbnail
        return .none
      }
    }
  }

  struct List: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row.State>
    }
    enum Action: Equatable {
      case onAppear
      case deleteTapped(String)
      case row(id: String, action: Row.Action)
      static let rowCase = CasePath(Action.row) { if case let .row(id, action) = $0 { (id, action) } else { nil } }
    }
    let thumbnail: @Sendable (String) async throws -> String
    /// The fix: each row loads its own thumbnail, so removing the row cancels the load.
    let rowsLoadThemselves: Bool

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .onAppear:
          return .merge(
            state.rows.ids.map { id in
              rowsLoadThemselves
                ? .send(.row(id: id, action: .load))
                : .run { [thumbnail] send in send(.row(id: id, action: .thumbnailLoaded(try await thumbnail(id)))) }
            })
        case let .deleteTapped(id):
          state.rows.remove(id: id)
          return .none
        case .row:
          return .none
        }
      }
      .forEach(\.rows, action: Action.rowCase) { Row(thumbnail: thumbnail) }
    }
  }

  /// Shows two rows and deletes the first while the thumbnails load.
  static func deleteWhileLoading(fixed: Bool) async {
    let rows: IdentifiedArrayOf<Row.State> = [Row.State(id: "beach"), Row.State(id: "cat")]
    let store = TestStore(initialState: List.State(rows: rows)) {
      List(thumbnail: { id in try await withRacing { "\(id).png" } }, rowsLoadThemselves: fixed)
    }
    store.exhaustivity = .off
    await store.send(.onAppear)
    await store.send(.deleteTapped("beach"))
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.rows.map(\.thumbnail) == ["cat.png"])
  }

  @Test func theExplorerFindsTheResponseForTheDeletedRow() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: TestFailures().reporter) {
      await Self.deleteWhileLoading(fixed: false)
    }
    #expect(report.failingSchedule == "", "the thumbnails answer as late as the test allows: after the delete")
    #expect(report.failures.contains { $0.contains("missing element") })
  }

  @Test func thePlainTestStoreRunsOneOrderAndMissesIt() async {
    // Outside an exploration `withRacing` answers at once: both thumbnails load before the delete.
    await Self.deleteWhileLoading(fixed: false)
  }

  @Test func theFixedFeaturePassesEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      await Self.deleteWhileLoading(fixed: true)
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
    #expect(report.schedulesRun > 1)
  }

  // MARK: What the library already handles

  @Test func theLibraryDropsTheResponseOfARemovedRowsOwnEffect() async {
    // The fixed feature's rows load themselves: in every schedule, the deleted row's late answer is dropped with
    // its cancelled effect, and nothing is addressed to a missing element (the issue would fail the run).
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      let rows: IdentifiedArrayOf<Row.State> = [Row.State(id: "beach"), Row.State(id: "cat")]
      let store = TestStore(initialState: List.State(rows: rows)) {
        List(thumbnail: { id in try await withRacing { "\(id).png" } }, rowsLoadThemselves: true)
      }
      store.exhaustivity = .off
      let deleted = LockIsolated(false)
      store.checkEveryState { _, action in
        if action == .deleteTapped("beach") { deleted.withLock { $0 = true } }
        #expect(!deleted.value || action != .row(id: "beach", action: .thumbnailLoaded("beach.png")))
      }
      await store.send(.onAppear)
      await store.send(.deleteTapped("beach"))
      await store.finish()
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }
}

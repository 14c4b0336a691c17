import Testing
import Unidirectional
import UnidirectionalTesting

/// A double tap starts two uploads: the second tap arrives while the first upload is still in flight.
@MainActor
struct DoubleTapUploadTests {
  /// The uploads in flight, and the most that ever were at once.
  final class Server: Sendable {
    private let counts = LockIsolated((now: 0, most: 0))
    func upload() async throws -> String {
      counts.withLock {
        $0.now += 1; $0.most = max($0.most, $0.now)
      }
      defer { counts.withLock { $0.now -= 1 } }
      return try await withRacing { "media-1" }
    }
    var mostAtOnce: Int { counts.value.most }
  }

  struct Upload: Reducer {
    struct State: Equatable {
      var isUploading = false
      var ids: [String] = []
    }
    enum Action: Equatable { case uploadTapped, uploaded(String) }
    let server: Server
    /// The fix: a tap while uploading does nothing.
    let ignoresTapsWhileUploading: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .uploadTapped:
        if ignoresTapsWhileUploading && state.isUploading { return .none }
        state.isUploading = true
        return .run { [server] send in send(.uploaded(try await server.upload())) }
      case let .uploaded(id):
        state.isUploading = false
        state.ids.append(id)
        return .none
      }
    }
  }

  static func tapTwice(fixed: Bool) async {
    let server = Server()
    let store = TestStore(initialState: Upload.State()) { Upload(server: server, ignoresTapsWhileUploading: fixed) }
    store.exhaustivity = .off
    await store.send(.uploadTapped)
    await store.send(.uploadTapped)
    await store.finish()
    #expect(server.mostAtOnce == 1, "two uploads were in flight at once")
  }

  @Test func theExplorerFindsTheSecondUpload() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: TestFailures().reporter) {
      await Self.tapTwice(fixed: false)
    }
    #expect(report.failingSchedule != nil)
    #expect(report.failures.contains { $0.contains("two uploads were in flight at once") })
  }

  @Test func thePlainTestStoreRunsOneOrderAndMissesIt() async {
    await Self.tapTwice(fixed: false)
  }

  @Test func theFixedFeaturePassesEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.tapTwice(fixed: true) }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }
}

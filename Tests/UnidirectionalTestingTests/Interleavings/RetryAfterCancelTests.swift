import Testing
import Unidirectional
import UnidirectionalTesting

/// A retry racing a cancel: the load retries a failed request after a back-off, waited with `try?` so that a
/// failed wait does not end the loop; the user cancels while the first request is in flight, it fails, the
/// cancelled back-off throws at once — and `try?` turns that into "retry now". The server gets a request after
/// the user cancelled.
///
/// What that request answers never reaches the state: the cancelled effect's `send` is dropped (see the first
/// test). A back-off waited with `try await` ends the loop at the cancel.
@MainActor
struct RetryAfterCancelTests {
  /// Fails the first request with a 503, answers the later ones; counts requests made after the user cancelled.
  final class Server: Sendable {
    struct Unavailable: Error {}
    private let counts = LockIsolated((requests: 0, afterCancel: 0, isCancelled: false))
    func fetch() async throws -> String {
      let isFirst = counts.withLock {
        $0.requests += 1
        if $0.isCancelled { $0.afterCancel += 1 }
        return $0.requests == 1
      }
      return try await withRacing {
        if isFirst { throw Unavailable() }
        return "report"
      }
    }
    func userCancelled() { counts.withLock { $0.isCancelled = true } }
    var requestsAfterCancel: Int { counts.value.afterCancel }
  }

  struct Report: Reducer {
    struct State: Equatable {
      var isLoading = false
      var report: String?
    }
    enum Action: Equatable { case loadTapped, cancelTapped, loaded(String) }
    enum CancelID { case load }
    let server: Server
    let clock: TestClock
    /// The fix: the back-off is waited with `try await`, so a cancelled wait ends the loop.
    let backOffThrows: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .loadTapped:
        state.isLoading = true
        return .run { [server, clock, backOffThrows] send in
          for attempt in 1...3 {
            do {
              send(.loaded(try await server.fetch()))
              return
            } catch {
              if backOffThrows {
                try await clock.sleep(for: .seconds(attempt))
              } else {
                try? await clock.sleep(for: .seconds(attempt))
              }
            }
          }
        }
        .cancellable(id: CancelID.load)
      case .cancelTapped:
        state.isLoading = false
        return .cancel(id: CancelID.load)
      case let .loaded(report):
        state.isLoading = false
        state.report = report
        return .none
      }
    }
  }

  /// Taps load, lets the back-off pass, then cancels.
  static func loadThenCancel(fixed: Bool, checksTheState: Bool = false) async {
    let server = Server()
    let clock = TestClock()
    let store = TestStore(initialState: Report.State()) { Report(server: server, clock: clock, backOffThrows: fixed) }
    store.exhaustivity = .off
    let cancelled = LockIsolated(false)
    if checksTheState {
      store.checkEveryState { _, action in
        if action == .cancelTapped { cancelled.withLock { $0 = true } }
        if case .loaded = action { #expect(!cancelled.value, "a report loaded after the cancel") }
      }
    }
    await store.send(.loadTapped)
    await clock.advance(by: .seconds(1))
    server.userCancelled()
    await store.send(.cancelTapped)
    await store.finish()
    #expect(server.requestsAfterCancel == 0, "a request went out after the user cancelled")
  }

  @Test func theExplorerFindsTheRequestAfterTheCancel() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: TestFailures().reporter) {
      await Self.loadThenCancel(fixed: false, checksTheState: true)
    }
    #expect(report.failingSchedule == "", "the first request fails as late as the test allows: after the cancel")
    #expect(report.failures.contains { $0.contains("a request went out after the user cancelled") })
    // What the library handles: the late request's answer is dropped with its cancelled effect's `send`.
    #expect(!report.failures.contains { $0.contains("a report loaded after the cancel") })
  }

  @Test func thePlainTestStoreRunsOneOrderAndMissesIt() async {
    // Outside an exploration `withRacing` answers at once: the first request fails, the retry after the back-off
    // loads the report, and the cancel finds nothing to cancel.
    await Self.loadThenCancel(fixed: false)
  }

  @Test func theFixedFeaturePassesEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      await Self.loadThenCancel(fixed: true, checksTheState: true)
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
    #expect(report.schedulesRun > 1)
  }
}

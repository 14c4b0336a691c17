import Testing
import Unidirectional
import UnidirectionalTesting

/// Events a service pushes (here a download's progress) race the user's taps: the explorer must be able to deliver
/// each one before or after any tap that follows it, or it proves a buggy feature clean.
@MainActor
struct ServiceEventTests {
  /// A download reporting progress; cancelling it must leave no progress on screen.
  struct Download: Reducer {
    struct State: Equatable {
      var progress: Double?
      var title: String?
    }
    enum Action: Equatable { case start, cancel, progress(Double), title(String) }
    enum CancelID { case download }
    let progressEvents: @Sendable () -> AsyncThrowingStream<Double, any Error>
    let title: @Sendable () async throws -> String
    /// The fix: cancelling stops listening, so a late event is dropped with its cancelled effect's `send`.
    let cancelsTheDownload: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        state.progress = 0
        return .merge(
          .run { [progressEvents] send in
            for try await progress in progressEvents() { send(.progress(progress)) }
          }
          .cancellable(id: CancelID.download),
          .run { [title] send in send(.title(try await title())) })
      case .cancel:
        state.progress = nil
        return cancelsTheDownload ? .cancel(id: CancelID.download) : .none
      case let .progress(progress):
        state.progress = progress
        return .none
      case let .title(title):
        state.title = title
        return .none
      }
    }
  }

  /// Starts, receives the title, then an event arrives and the user cancels.
  static func startThenCancel(
    events: @escaping @Sendable () -> AsyncThrowingStream<Double, any Error>, fixed: Bool,
    feed: (Double?) -> Void
  ) async {
    let store = TestStore(initialState: Download.State()) {
      Download(progressEvents: events, title: { try await withRacing { "Song" } }, cancelsTheDownload: fixed)
    }
    store.exhaustivity = .off
    await store.send(.start)
    await store.receive(.title("Song"))
    feed(0.5)
    await store.send(.cancel)
    feed(nil)
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.progress == nil, "progress shown after the download was cancelled")
  }

  /// The events as a user first wrote them: a stream the test feeds, its `next()` wrapped in `withRacing`.
  static func startThenCancelWithAWrappedStream(fixed: Bool) async {
    let (feed, feeder) = AsyncStream<Double>.makeStream()
    let iterator = LockIsolated(feed.makeAsyncIterator())
    await startThenCancel(
      events: {
        AsyncThrowingStream(unfolding: {
          try await withRacing {
            var next = iterator.value
            defer { iterator.setValue(next) }
            return await next.next()
          }
        })
      },
      fixed: fixed,
      feed: { value in
        if let value { feeder.yield(value) } else { feeder.finish() }
      })
  }

  /// The events as a `RacingStream`: each delivery is the explorer's choice.
  static func startThenCancelWithARacingStream(fixed: Bool) async {
    let events = RacingStream<Double>()
    await startThenCancel(
      events: { events.stream }, fixed: fixed,
      feed: { value in
        if let value { events.yield(value) } else { events.finish() }
      })
  }

  @Test func aRacingCallWhoseAnswerWaitsForTheTestIsReportedNotExploredAsIfItMoved() async {
    // Before: 77 schedules of the buggy feature, every one within the bound, all passing. The answer to the
    // wrapped `next()` waits for the test's `yield`, which resumes it where the test yields, in every schedule.
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3), reporter: TestFailures().reporter) {
      await Self.startThenCancelWithAWrappedStream(fixed: false)
    }
    #expect(report.schedulesRun == 1)
    #expect(
      report.failures.contains {
        $0.contains("The racing call withRacing at ServiceEventTests.swift:")
          && $0.contains("did not answer when the explorer completed it")
          && $0.contains("RacingStream")
      })
  }

  @Test func aRacingStreamsEventArrivesAfterTheCancelAndTheExplorerFindsIt() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3), reporter: TestFailures().reporter) {
      await Self.startThenCancelWithARacingStream(fixed: false)
    }
    // As late as the test allows: after the cancel, first in, first out.
    #expect(report.failingSchedule == "")
    #expect(report.failures.contains { $0.contains("progress shown after the download was cancelled") })
    #expect(
      report.choices.contains {
        $0.hasPrefix("-  in finish() at ServiceEventTests.swift:")
          && $0.contains("answered element 1 of the RacingStream at ServiceEventTests.swift:")
          && $0.contains("in effect 1 of .start")
      })
  }

  @Test func theFixedFeaturePassesEveryScheduleOfTheRacingStream() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      await Self.startThenCancelWithARacingStream(fixed: true)
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
    #expect(report.schedulesRun > 1, "the event before the cancel, and after it")
  }

  @Test func outsideAnExplorationARacingStreamHandsEachEventOverAtOnce() async {
    let events = RacingStream<Double>()
    let store = TestStore(initialState: Download.State()) {
      Download(progressEvents: { events.stream }, title: { "Song" }, cancelsTheDownload: true)
    }
    await store.send(.start) { $0.progress = 0 }
    await store.receive(.title("Song")) { $0.title = "Song" }
    events.yield(0.5)
    await store.receive(.progress(0.5)) { $0.progress = 0.5 }
    events.yield(1)
    await store.receive(.progress(1)) { $0.progress = 1 }
    events.finish()
    await store.finish()
  }

  @Test func aRacingStreamFinishedWithAnErrorThrowsItAfterItsElements() async throws {
    struct Closed: Error {}
    let events = RacingStream<Int>()
    events.yield(1)
    events.finish(throwing: Closed())
    var iterator = events.makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    do {
      _ = try await iterator.next()
      Issue.record("the stream ended without its error")
    } catch {
      #expect(error is Closed)
    }
  }
}

import Testing
import Unidirectional
import UnidirectionalTesting

/// A `receive` completes only the racing calls it needs, exploring which: the others may answer after the test's
/// next step. And a double that answers without end makes a `receive` fail, saying so, instead of spinning.
@MainActor
struct RacingDemandTests {
  /// Connecting also fetches the messages missed while offline; disconnecting clears them.
  struct Chat: Reducer {
    struct State: Equatable {
      var isConnected = false
      var messages: [String] = []
    }
    enum Action: Equatable { case connectTapped, connected, missed([String]), disconnectTapped }
    enum CancelID { case connection }
    let connect: @Sendable () async throws -> Void
    let missedMessages: @Sendable () async throws -> [String]
    /// The fix: disconnecting cancels what the connection started.
    let cancelsOnDisconnect: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .connectTapped:
        return .merge(
          .run { [connect] send in
            try await connect()
            send(.connected)
          },
          .run { [missedMessages] send in send(.missed(try await missedMessages())) }
        )
        .cancellable(id: CancelID.connection)
      case .connected:
        state.isConnected = true
        return .none
      case let .missed(messages):
        state.messages += messages
        return .none
      case .disconnectTapped:
        state.isConnected = false
        state.messages = []
        return cancelsOnDisconnect ? .cancel(id: CancelID.connection) : .none
      }
    }
  }

  /// Connects, waits for the connection, disconnects: no message of the closed connection may stay.
  static func connectThenDisconnect(fixed: Bool) async {
    let store = TestStore(initialState: Chat.State()) {
      Chat(
        connect: { try await withRacing {} }, missedMessages: { try await withRacing { ["hi"] } },
        cancelsOnDisconnect: fixed)
    }
    store.exhaustivity = .off
    await store.send(.connectTapped)
    await store.receive(.connected)
    await store.send(.disconnectTapped)
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.messages.isEmpty, "messages of a closed connection")
  }

  @Test func theMissedMessagesMayArriveAfterTheDisconnectAndTheExplorerTriesIt() async {
    // Before: 35 schedules, all passing: `receive(.connected)` completed both calls, so the missed messages always
    // arrived before the disconnect.
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3), reporter: TestFailures().reporter) {
      await Self.connectThenDisconnect(fixed: false)
    }
    #expect(report.failingSchedule == "", "first in, first out leaves the messages' answer for later")
    #expect(report.failures.contains { $0.contains("messages of a closed connection") })
    #expect(
      report.choices.contains {
        $0.contains("in send(.disconnectTapped) at RacingDemandTests.swift:")
          && $0.contains("left waiting: withRacing at RacingDemandTests.swift:")
      })
  }

  @Test func theFixedFeaturePassesEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      await Self.connectThenDisconnect(fixed: true)
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }

  /// A socket whose every `receive()` has a frame.
  struct Pinger: Reducer {
    struct State: Equatable { var frames = 0 }
    enum Action: Equatable { case listen, frame(String), closed }
    let receive: @Sendable () async throws -> String

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .listen:
        return .run { [receive] send in
          while true { send(.frame(try await receive())) }
        }
      case .frame:
        state.frames += 1
        return .none
      case .closed:
        return .none
      }
    }
  }

  @Test func aDoubleThatAnswersWithoutEndFailsTheReceiveAndSaysWhichCall() async {
    // Before: `receive(.closed)` never returned (the test was killed after 60 s, with no message).
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: TestFailures().reporter) {
      let store = TestStore(initialState: Pinger.State()) {
        Pinger(receive: { try await withRacing { "ping" } })
      }
      store.exhaustivity = .off
      await store.send(.listen)
      await store.receive(.closed)
      await store.skipInFlightEffects()
    }
    #expect(report.failingSchedule == "")
    #expect(
      report.failures.contains {
        $0.contains("Expected to receive")
          && $0.contains("closed, but received none: racing calls answered without end")
      })
    #expect(
      report.failures.contains {
        $0.contains("Racing calls answered 10000 times since receive(.closed) at RacingDemandTests.swift:")
          && $0.contains("without end: withRacing at RacingDemandTests.swift:")
      })
  }
}

import Testing
import Unidirectional
import UnidirectionalTesting

/// The plain Swift 6 twin of the Xcode 26 target's `SocketFeatureTests`: TCA's web socket case study's ping, a
/// task-group child that sleeps on the clock and then calls a `@MainActor` test double. Here only the double hops to
/// the main actor (the reducer is not main-actor isolated); the ping must still have happened when `advance` returns.
@MainActor struct SocketPingTests {
  struct Pinger: Reducer {
    struct State: Equatable { var isConnected = false }
    enum Action: Equatable {
      case connect
      case disconnect
      case connected
    }
    enum CancelID { case socket }
    @Dependency(\.continuousClock) var clock
    let sendPing: @Sendable () async throws -> Void
    let received: @Sendable () async throws -> AsyncStream<String>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .connect:
        return .run { send in
          send(.connected)
          await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
              while !Task.isCancelled {
                try await self.clock.sleep(for: .seconds(10))
                try? await self.sendPing()
              }
            }
            group.addTask {
              for await _ in try await self.received() {}
            }
          }
        }
        .cancellable(id: CancelID.socket)
      case .connected:
        state.isConnected = true
        return .none
      case .disconnect:
        state.isConnected = false
        return .cancel(id: CancelID.socket)
      }
    }
  }

  @Test func aPingGoesOutEveryTenSecondsOfTheTestClock() async {
    let clock = TestClock()
    var pingsCount = 0
    let store = TestStore(initialState: Pinger.State()) {
      Pinger(sendPing: { @MainActor in pingsCount += 1 }, received: { try await Task.never() })
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.connect)
    await store.receive(.connected) { $0.isConnected = true }

    #expect(pingsCount == 0)
    await clock.advance(by: .seconds(10))
    #expect(pingsCount == 1)
    await clock.advance(by: .seconds(10))
    #expect(pingsCount == 2)

    await store.send(.disconnect) { $0.isConnected = false }
  }
}

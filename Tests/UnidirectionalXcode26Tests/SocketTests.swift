import Testing
import Unidirectional
import UnidirectionalTesting

@Suite struct SocketFeatureTests {
  @Test func aPingGoesOutEveryTenSecondsOfTheTestClock() async {
    let events = AsyncStream.makeStream(of: SocketClient.Event.self)
    let clock = TestClock()
    var pingsCount = 0
    let store = TestStore(initialState: SocketFeature.State()) {
      SocketFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.socket.open = { _ in events.stream }
      $0.socket.receive = { _ in try await Task.never() }
      $0.socket.sendPing = { @MainActor _ in pingsCount += 1 }
    }
    await store.send(.connectTapped) { $0.connectivity = .connecting }
    events.continuation.yield(.didOpen)
    await store.receive(.socket(.didOpen)) { $0.connectivity = .connected }

    #expect(pingsCount == 0)
    await clock.advance(by: .seconds(10))
    #expect(pingsCount == 1)
    await clock.advance(by: .seconds(10))
    #expect(pingsCount == 2)

    await store.send(.connectTapped) { $0.connectivity = .disconnected }
  }
}

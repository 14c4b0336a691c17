import Foundation
import Unidirectional

/// A connection to a socket server that pings it every ten seconds, written as TCA's web socket case study writes
/// its effect: a task group whose children read the reducer's dependencies through `self`.
struct SocketFeature: Reducer {
  struct State: Equatable {
    var connectivity = Connectivity.disconnected
    var received: [String] = []
  }
  nonisolated enum Connectivity: Equatable { case connected, connecting, disconnected }
  nonisolated enum Action: Equatable {
    case connectTapped
    case socket(SocketClient.Event)
    case received(String)
  }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.socket) var socket

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .connectTapped:
        guard state.connectivity == .disconnected else {
          state.connectivity = .disconnected
          return .cancel(id: SocketClient.ID())
        }
        state.connectivity = .connecting
        return .run { send in
          let events = await self.socket.open(SocketClient.ID())
          await withThrowingTaskGroup(of: Void.self) { group in
            for await event in events {
              group.addTask { send(.socket(event)) }
              switch event {
              case .didOpen:
                group.addTask {
                  while !Task.isCancelled {
                    try await self.clock.sleep(for: .seconds(10))
                    try? await self.socket.sendPing(SocketClient.ID())
                  }
                }
                group.addTask {
                  for await message in try await self.socket.receive(SocketClient.ID()) {
                    send(.received(message))
                  }
                }
              case .didClose:
                return
              }
            }
          }
        }
        .cancellable(id: SocketClient.ID())
      case .socket(.didOpen):
        state.connectivity = .connected
        return .none
      case .socket(.didClose):
        state.connectivity = .disconnected
        return .cancel(id: SocketClient.ID())
      case let .received(message):
        state.received.append(message)
        return .none
      }
    }
  }
}

/// The socket the feature talks to; tests replace each closure.
struct SocketClient: Sendable {
  nonisolated struct ID: Hashable, Sendable {}
  nonisolated enum Event: Equatable, Sendable { case didOpen, didClose }

  var open: @Sendable (ID) async -> AsyncStream<Event>
  var receive: @Sendable (ID) async throws -> AsyncStream<String>
  var sendPing: @Sendable (ID) async throws -> Void
}

extension SocketClient: TestDependencyKey {
  static let testValue = SocketClient(
    open: { _ in .finished }, receive: { _ in .finished }, sendPing: { _ in })
}

extension DependencyValues {
  var socket: SocketClient {
    get { self[SocketClient.self] }
    set { self[SocketClient.self] = newValue }
  }
}

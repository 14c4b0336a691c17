import NIOConcurrencyHelpers
import NIOCore

/// The fault hook: counts every byte the server receives, over all connections, and closes the connection that
/// brings the total past the next drop point, after passing on exactly the bytes up to that point.
///
/// Sits first in each connection's pipeline, so it sees the raw bytes (request heads and bodies).
final class ConnectionDropper: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer

  /// Shared by all connections of one server.
  final class Counter: Sendable {
    private struct State {
      var received: Int64 = 0
      var dropPoints: [Int64]
      var dropped = 0
    }
    private let state: NIOLockedValueBox<State>

    init(dropPoints: [Int64]) {
      self.state = NIOLockedValueBox(State(dropPoints: dropPoints))
    }

    /// Counts `count` more bytes; returns how many of them to pass on before closing, or nil to pass all.
    func receive(_ count: Int) -> Int? {
      state.withLockedValue { state in
        let before = state.received
        state.received += Int64(count)
        guard let next = state.dropPoints.first, state.received >= next else { return nil }
        state.dropPoints.removeFirst()
        state.dropped += 1
        // Never fire twice for one buffer: the connection closes now.
        state.dropPoints.removeAll { $0 <= state.received }
        state.received = next
        return Int(next - before)
      }
    }

    /// Bytes received so far (counting only what was passed on) and connections dropped.
    var snapshot: (received: Int64, dropped: Int) {
      state.withLockedValue { ($0.received, $0.dropped) }
    }
  }

  private let counter: Counter
  private var isClosing = false

  init(counter: Counter) {
    self.counter = counter
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !isClosing else { return }
    var buffer = unwrapInboundIn(data)
    guard let keep = counter.receive(buffer.readableBytes) else {
      context.fireChannelRead(data)
      return
    }
    isClosing = true
    if keep > 0, let head = buffer.readSlice(length: keep) {
      context.fireChannelRead(wrapInboundOut(head))
      context.fireChannelReadComplete()
    }
    // The client is still sending: closing with unread bytes makes the kernel answer with a reset, as when a
    // network path breaks.
    context.close(promise: nil)
  }
}

import Foundation

/// A bare HTTP server on 127.0.0.1 for the misbehaving servers a host must survive: one that reads everything and
/// never answers (an unresponsive upload server), or one that answers every request as soon as its headers are in
/// with a response built from them (e.g. an error that echoes the `Authorization` header). ``stop()`` shuts every
/// socket down (register it as a teardown block).
///
/// ```swift
/// let server = try LoopbackStubServer()            // never answers
/// addTeardownBlock { server.stop() }
/// … upload to http://127.0.0.1:\(server.port) with a short timeout …
/// XCTAssertGreaterThan(server.bytesReceived, 0)
/// ```
final class LoopbackStubServer: Sendable {
  /// The port it listens on.
  var port: UInt16 { listener.port }
  private let listener: LoopbackListener
  private let received: ByteCount

  /// Listens on a free loopback port and accepts on a background thread; each request is answered with
  /// `answer(head)` once its head (request line and headers) has arrived, then its connection is closed — or never,
  /// when `answer` is nil. The rest of the request is read (and dropped) after the answer unless
  /// `closesAfterAnswering`: then the connection is closed at once, before the body is read (the kernel resets it).
  /// With `answerDelay` (seconds) the answer waits that long after the head, reading nothing meanwhile (a client
  /// sending a body has filled the connection's buffers by then).
  init(
    closesAfterAnswering: Bool = false, answerDelay: TimeInterval = 0,
    answer: (@Sendable (_ head: String) -> String)? = nil
  ) throws {
    let received = ByteCount()
    let delay = useconds_t(max(0, answerDelay) * 1_000_000)
    self.received = received
    listener = try LoopbackListener { connection, _ in
      Self.readUntilClosed(
        connection, answer: answer, closesAfterAnswering: closesAfterAnswering, answerDelay: delay,
        received: received)
    }
  }

  /// The bytes read so far, over every connection.
  var bytesReceived: Int { received.value }

  /// Shuts the listening socket and every connection down. Safe to call twice.
  func stop() {
    listener.stop()
  }

  /// Reads until the peer closes or ``stop()`` shuts the socket down; answers once the head is in, if it answers.
  private static func readUntilClosed(
    _ connection: Int32, answer: (@Sendable (_ head: String) -> String)?, closesAfterAnswering: Bool,
    answerDelay: useconds_t, received: ByteCount
  ) {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var head = Data()
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { return }
      received.add(count)
      guard let answer else { continue }
      head.append(contentsOf: buffer[0..<count])
      guard let end = head.range(of: Data("\r\n\r\n".utf8)) else { continue }
      if answerDelay > 0 { usleep(answerDelay) }
      _ = LoopbackListener.write(answer(String(decoding: head[..<end.lowerBound], as: UTF8.self)), to: connection)
      if closesAfterAnswering { return }
      shutdown(connection, Int32(SHUT_WR))
      head = Data()
    }
  }

  /// A count of bytes that connection threads add to.
  private final class ByteCount: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    func add(_ count: Int) { lock.withLock { total += count } }
    var value: Int { lock.withLock { total } }
  }
}

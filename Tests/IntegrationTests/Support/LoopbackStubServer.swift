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
final class LoopbackStubServer: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The port it listens on.
  let port: UInt16
  /// Builds the whole response (status line, headers, body) from a request's head; nil: never answer.
  private let answer: (@Sendable (_ head: String) -> String)?
  /// Whether a connection is closed as soon as it is answered, whatever of the body is still unread.
  private let closesAfterAnswering: Bool
  /// How long a complete head waits for its answer (microseconds), the body left unread meanwhile.
  private let answerDelay: useconds_t

  private let listener: Int32
  private let lock = NSLock()
  private var connections: [Int32] = []
  private var received = 0
  private var isStopped = false

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
    self.answer = answer
    self.closesAfterAnswering = closesAfterAnswering
    self.answerDelay = useconds_t(max(0, answerDelay) * 1_000_000)
    (listener, port) = try Self.listenOnLoopback()
    Thread { [self] in acceptLoop() }.start()
  }

  /// The bytes read so far, over every connection.
  var bytesReceived: Int { lock.withLock { received } }

  /// Shuts the listening socket and every connection down (their threads then close them). Safe to call twice.
  func stop() {
    // Under the lock: a connection's thread removes it (under the lock) before closing it, so none is closed here.
    lock.withLock {
      guard !isStopped else { return }
      isStopped = true
      for socket in connections + [listener] { shutdown(socket, Int32(SHUT_RDWR)) }
    }
  }

  /// A socket listening on a free 127.0.0.1 port, and the port.
  static func listenOnLoopback() throws -> (descriptor: Int32, port: UInt16) {
    let descriptor = socket(AF_INET, streamType, 0)
    guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard bound == 0, named == 0, listen(descriptor, 16) == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw Failure(description: "cannot listen on 127.0.0.1: \(reason)")
    }
    return (descriptor, UInt16(bigEndian: address.sin_port))
  }

  private func acceptLoop() {
    defer { close(listener) }
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else {
        if errno == EINTR { continue }
        return  // shut down by stop()
      }
      let accepted: Bool = lock.withLock {
        guard !isStopped else { return false }
        connections.append(connection)
        return true
      }
      guard accepted else {
        close(connection)
        return
      }
      Thread { [self] in readUntilClosed(connection) }.start()
    }
  }

  /// Reads until the peer closes or ``stop()`` shuts the socket down; answers once the head is in, if it answers.
  private func readUntilClosed(_ connection: Int32) {
    defer {
      lock.withLock { connections.removeAll { $0 == connection } }
      close(connection)
    }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var head = Data()
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { return }
      lock.withLock { received += count }
      guard let answer else { continue }
      head.append(contentsOf: buffer[0..<count])
      guard let end = head.range(of: Data("\r\n\r\n".utf8)) else { continue }
      if answerDelay > 0 { usleep(answerDelay) }
      let response = Data(answer(String(decoding: head[..<end.lowerBound], as: UTF8.self)).utf8)
      _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Self.sendFlags) }
      if closesAfterAnswering { return }
      shutdown(connection, Int32(SHUT_WR))
      head = Data()
    }
  }

  #if os(Linux)
    static let streamType = Int32(SOCK_STREAM.rawValue)
    /// A peer that already hung up is an error here, not a SIGPIPE that ends the test process.
    static let sendFlags = Int32(MSG_NOSIGNAL)
  #else
    static let streamType = SOCK_STREAM
    static let sendFlags: Int32 = 0
  #endif
}

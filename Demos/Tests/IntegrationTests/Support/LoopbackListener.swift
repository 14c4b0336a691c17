import Foundation

/// A listening socket on a free 127.0.0.1 port that hands every connection it accepts to `serve`, each on a thread
/// of its own, and closes the connection when `serve` returns. ``stop()`` shuts the listening socket and every open
/// connection down (their threads then return); the test servers are built on it.
///
/// ```swift
/// let listener = try LoopbackListener { connection, index in
///   … read a request from `connection`, answer it …
/// }
/// addTeardownBlock { listener.stop() }
/// … connect to 127.0.0.1:\(listener.port) …
/// ```
final class LoopbackListener: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The port it listens on.
  let port: UInt16
  private let descriptor: Int32
  private let serve: @Sendable (_ connection: Int32, _ index: Int) -> Void
  private let lock = NSLock()
  private var connections: [Int32] = []
  private var accepted = 0
  private var isStopped = false

  /// Listens and accepts on a background thread; `serve` gets each connection with its place among them (0 for the
  /// first).
  init(serve: @escaping @Sendable (_ connection: Int32, _ index: Int) -> Void) throws {
    self.serve = serve
    let descriptor = socket(AF_INET, Self.streamType, 0)
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
    self.descriptor = descriptor
    port = UInt16(bigEndian: address.sin_port)
    Thread { [self] in acceptLoop() }.start()
  }

  /// The connections accepted so far.
  var connectionCount: Int { lock.withLock { accepted } }

  /// Shuts the listening socket and every connection down. Safe to call twice.
  func stop() {
    // Under the lock: a connection's thread removes it (under the lock) before closing it, so none is closed here.
    lock.withLock {
      guard !isStopped else { return }
      isStopped = true
      for socket in connections + [descriptor] { shutdown(socket, Int32(SHUT_RDWR)) }
    }
  }

  private func acceptLoop() {
    defer { close(descriptor) }
    while true {
      let connection = accept(descriptor, nil, nil)
      guard connection >= 0 else {
        if errno == EINTR { continue }
        return  // shut down by stop()
      }
      let index: Int? = lock.withLock {
        guard !isStopped else { return nil }
        connections.append(connection)
        accepted += 1
        return accepted - 1
      }
      guard let index else {
        close(connection)
        return
      }
      Thread { [self] in
        serve(connection, index)
        lock.withLock { connections.removeAll { $0 == connection } }
        close(connection)
      }.start()
    }
  }

  /// Sends all of `text`; whether it all went.
  static func write(_ text: String, to connection: Int32) -> Bool {
    let data = Data(text.utf8)
    return data.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, sendFlags) } == data.count
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

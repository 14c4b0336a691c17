import Foundation

/// An HTTP/1.1 server on 127.0.0.1 that keeps its first connection alive after answering the first request, then
/// drops that connection in the middle of the next request's body, without a byte of answer — as a server does
/// that closes an idle connection just as the client picks it again. Every other connection reads one whole
/// request (its `Content-Length`) and answers `200` with the number of body bytes it got.
///
/// A client that retries on a new connection must send the whole body again: one that carries on from where the
/// dead connection left it sends fewer bytes than its `Content-Length`, and the server waits for the rest.
///
/// ```swift
/// let server = try DroppingKeepAliveServer(dropAfter: 100_000)
/// addTeardownBlock { server.stop() }
/// … GET, then POST a 4 MB body to http://127.0.0.1:\(server.port) …
/// XCTAssertEqual(server.completeBodies, [4_000_000])
/// ```
final class DroppingKeepAliveServer: Sendable {
  /// The port it listens on.
  var port: UInt16 { listener.port }
  private let listener: LoopbackListener
  private let bodies: Bodies

  /// `dropAfter`: how many body bytes of the second request the first connection reads before it drops.
  init(dropAfter: Int) throws {
    let bodies = Bodies()
    self.bodies = bodies
    listener = try LoopbackListener { connection, index in
      Self.serve(connection, isFirst: index == 0, dropAfter: dropAfter, bodies: bodies)
    }
  }

  /// The body sizes of the requests answered on connections other than the first, in order.
  var completeBodies: [Int] { bodies.values }

  /// The connections accepted so far.
  var connectionCount: Int { listener.connectionCount }

  /// Shuts every socket down. Safe to call twice.
  func stop() {
    listener.stop()
  }

  private static func serve(_ connection: Int32, isFirst: Bool, dropAfter: Int, bodies: Bodies) {
    var reader = Reader(connection: connection)
    // The first request, whole, answered on a connection kept alive.
    guard let first = reader.head() else { return }
    guard let firstBody = reader.body(length: contentLength(first), upTo: nil) else { return }
    if isFirst {
      guard LoopbackListener.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", to: connection) else { return }
      // The next request on this connection: its head, part of its body, then the connection is dropped.
      guard let second = reader.head() else { return }
      _ = reader.body(length: contentLength(second), upTo: dropAfter)
      return
    }
    bodies.append(firstBody)
    let answer = "received \(firstBody)"
    _ = LoopbackListener.write(
      "HTTP/1.1 200 OK\r\nContent-Length: \(answer.utf8.count)\r\nConnection: close\r\n\r\n\(answer)", to: connection)
  }

  /// The body sizes answered, in order.
  private final class Bodies: @unchecked Sendable {
    private let lock = NSLock()
    private var sizes: [Int] = []
    func append(_ size: Int) { lock.withLock { sizes.append(size) } }
    var values: [Int] { lock.withLock { sizes } }
  }

  private static func contentLength(_ head: String) -> Int {
    for line in head.split(separator: "\r\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "content-length" {
        return Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
      }
    }
    return 0
  }

  /// Reads a connection's heads and bodies, keeping what arrived past one for the next.
  private struct Reader {
    let connection: Int32
    var pending = Data()

    /// The next request head, or nil when the connection ends first.
    mutating func head() -> String? {
      while true {
        if let end = pending.range(of: Data("\r\n\r\n".utf8)) {
          let head = String(decoding: pending[pending.startIndex..<end.lowerBound], as: UTF8.self)
          pending = Data(pending[end.upperBound...])
          return head
        }
        guard receive() else { return nil }
      }
    }

    /// Reads `length` body bytes (or `limit`, if smaller); their count, or nil when the connection ends first.
    mutating func body(length: Int, upTo limit: Int?) -> Int? {
      let wanted = min(length, limit ?? length)
      while pending.count < wanted {
        guard receive() else { return nil }
      }
      let taken = min(pending.count, length)
      pending = Data(pending.dropFirst(taken))
      return taken
    }

    private mutating func receive() -> Bool {
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        pending.append(contentsOf: buffer[0..<count])
        return true
      }
    }
  }
}

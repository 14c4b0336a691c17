import Foundation

#if canImport(Darwin)
  import Darwin
#else
  import Glibc
#endif

/// Serves the inspector page and its per-step JSON on 127.0.0.1, on a free port, to whoever has the token.
///
/// Every request must name this server in its `Host` header (a page on another site that rebinds a name to
/// 127.0.0.1 is refused) and carry the random token in its query; only the page's own files and the model's
/// answers are served.
///
/// ```swift
/// let server = try InspectorServer(model: try InspectorLogModel(contentsOf: logURL, reducer: Counter()))
/// print("inspector: \(server.url)")      // http://127.0.0.1:41234/?token=…
/// // …
/// server.stop()
/// ```
public final class InspectorServer: Sendable {
  /// The port it listens on.
  public let port: UInt16
  /// The access token every request must carry (`?token=`).
  public let token: String
  /// The page's address, token included.
  public var url: URL {
    URL(string: "http://127.0.0.1:\(port)/?token=\(token)") ?? URL(fileURLWithPath: "/")
  }

  /// At most this many connections are served at once; more are refused with 503.
  static let connectionLimit = 32

  private let listener: Int32
  private let router: InspectorRouter
  private let connections = ConnectionCount()

  /// Starts listening on 127.0.0.1 (`port` 0: a free one) and serving the action log `model` on a thread of its own.
  public convenience init<R>(model: InspectorLogModel<R>, port: UInt16 = 0) throws(InspectorError) {
    try self.init(serving: model, port: port)
  }

  /// Starts listening on 127.0.0.1 (`port` 0: a free one) and serving the trace `model` (a store's run, opened
  /// alone) on a thread of its own.
  public convenience init(model: InspectorTraceModel, port: UInt16 = 0) throws(InspectorError) {
    try self.init(serving: model, port: port)
  }

  /// Starts listening on 127.0.0.1 (`port` 0: a free one) and serving the running store of `model` on a thread of
  /// its own.
  public convenience init(model: InspectorLive, port: UInt16 = 0) throws(InspectorError) {
    try self.init(serving: model, port: port)
  }

  /// Starts listening on 127.0.0.1 (`port` 0: a free one) and serving `model` on a thread of its own.
  package init(serving model: any InspectorModel, port: UInt16 = 0) throws(InspectorError) {
    #if canImport(Darwin)
      let socketDescriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #else
      let socketDescriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard socketDescriptor >= 0 else { throw .cannotListen(reason: InspectorError.systemReason) }
    var one: Int32 = 1
    _ = setsockopt(socketDescriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(socketDescriptor, 64) == 0 else {
      let reason = InspectorError.systemReason
      _ = close(socketDescriptor)
      throw .cannotListen(reason: reason)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
    }
    self.port = UInt16(bigEndian: address.sin_port)
    self.listener = socketDescriptor
    self.token = Self.randomToken()
    self.router = InspectorRouter(model: model, token: token, port: self.port)
    let thread = Thread { [listener, router, connections] in
      Self.acceptLoop(listener: listener, router: router, connections: connections)
    }
    thread.name = "UnidirectionalInspector.accept"
    thread.start()
  }

  /// Stops accepting connections (the ones being served finish on their own).
  public func stop() {
    // shutdown wakes the thread blocked in accept; it closes the socket as it leaves.
    _ = shutdown(listener, Int32(SHUT_RDWR))
  }

  private static func acceptLoop(listener: Int32, router: InspectorRouter, connections: ConnectionCount) {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        _ = close(listener)
        return
      }
      let connection = HTTPConnection(descriptor: client, timeoutSeconds: 10)
      guard connections.enter(limit: connectionLimit) else {
        connection.respond(status: 503, reason: "Busy", headers: [], body: Array("too many connections\n".utf8))
        continue
      }
      let thread = Thread {
        router.serve(connection)
        connections.leave()
      }
      thread.name = "UnidirectionalInspector.connection"
      thread.start()
    }
  }

  /// 128 random bits as hex, from the system's generator.
  private static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }
      .joined()
  }
}

/// How many connections are being served.
private final class ConnectionCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func enter(limit: Int) -> Bool {
    lock.withLock {
      guard count < limit else { return false }
      count += 1
      return true
    }
  }

  func leave() {
    lock.withLock { count -= 1 }
  }
}

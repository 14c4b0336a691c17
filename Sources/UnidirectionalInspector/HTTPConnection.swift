import Foundation

#if canImport(Darwin)
  import Darwin
#else
  import Glibc
#endif

/// One accepted connection: reads a request head and writes responses, with timeouts so a silent or stalled peer
/// holds its own thread for a bounded time and nothing else. Used by one thread at a time.
final class HTTPConnection: @unchecked Sendable {
  /// The longest request head read (a browser's is well under 4 KiB).
  static let maximumHeadLength = 16 << 10

  private let descriptor: Int32
  private var isClosed = false

  init(descriptor: Int32, timeoutSeconds: Int) {
    self.descriptor = descriptor
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  deinit { close() }

  /// The request head's bytes (up to the blank line), or `nil` when the peer closed, timed out or sent too much.
  func readHead() -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count < Self.maximumHeadLength {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return nil }
      bytes.append(contentsOf: chunk[0..<count])
      if let end = Self.endOfHead(in: bytes) { return Array(bytes[0..<end]) }
    }
    return nil
  }

  /// Writes a whole response and reports whether it all went out.
  @discardableResult
  func respond(status: Int, reason: String, headers: [(String, String)], body: [UInt8]) -> Bool {
    var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "\r\n"
    return write(Array(head.utf8) + body)
  }

  /// Writes all of `bytes`; false when the peer is gone or did not read for the timeout.
  func write(_ bytes: [UInt8]) -> Bool {
    guard !isClosed else { return false }
    var offset = 0
    #if canImport(Darwin)
      let flags: Int32 = 0
    #else
      let flags = Int32(MSG_NOSIGNAL)
    #endif
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return send(descriptor, base + offset, buffer.count - offset, flags)
      }
      if sent < 0, errno == EINTR { continue }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }

  func close() {
    guard !isClosed else { return }
    isClosed = true
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
    #if canImport(Darwin)
      _ = Darwin.close(descriptor)
    #else
      _ = Glibc.close(descriptor)
    #endif
  }

  /// The index after `\r\n\r\n`, if the bytes hold one.
  private static func endOfHead(in bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 3..<bytes.count
    where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
      return index + 1
    }
    return nil
  }
}

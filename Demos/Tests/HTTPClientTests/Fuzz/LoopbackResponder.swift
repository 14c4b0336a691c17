#if canImport(Glibc)
  import Foundation
  import Glibc

  /// A server on 127.0.0.1 that answers every request with the bytes it is given, for the socket engine's fuzz
  /// target: it reads the whole request (head and `Content-Length` body) before it answers, so the client has sent
  /// everything and what it reads does not depend on timing; then it shuts its side and waits for the client to
  /// close. One connection at a time, on one thread, for the life of the process.
  ///
  /// ```swift
  /// let responder = LoopbackResponder.shared
  /// responder.answer = Data("HTTP/1.1 204 No Content\r\n\r\n".utf8)
  /// // a request to http://127.0.0.1:\(responder.port)/ gets it
  /// ```
  final class LoopbackResponder: @unchecked Sendable {
    /// Started on first use.
    static let shared = LoopbackResponder()

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var nextAnswer = Data()

    /// What the next connection is answered with.
    var answer: Data {
      get { lock.withLock { nextAnswer } }
      set { lock.withLock { nextAnswer = newValue } }
    }

    private init() {
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0
            && getsockname(descriptor, $0, &length) == 0
        }
      }
      guard descriptor >= 0, bound else { fuzzFailure("cannot listen on 127.0.0.1: \(errno)") }
      listener = descriptor
      port = UInt16(bigEndian: address.sin_port)
      let thread = Thread { [self] in
        while true {
          let connection = accept(listener, nil, nil)
          if connection < 0 { continue }
          serve(connection)
        }
      }
      thread.name = "LoopbackResponder"
      thread.start()
    }

    private func serve(_ connection: Int32) {
      defer { close(connection) }
      var timeout = timeval(tv_sec: 10, tv_usec: 0)
      _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      _ = setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      var request: [UInt8] = []
      var expected: Int?
      var buffer = [UInt8](repeating: 0, count: 16_384)
      while expected.map({ request.count < $0 }) ?? true {
        let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return }
        request += buffer[0..<count]
        if expected == nil, let end = Self.endOfHead(request) {
          let head = String(decoding: request[0..<end], as: UTF8.self).lowercased()
          let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
          expected = end + (length ?? 0)
        }
      }
      let bytes = [UInt8](answer)
      var sent = 0
      while sent < bytes.count {
        let count = bytes.withUnsafeBytes { raw -> Int in
          guard let base = raw.baseAddress else { return 0 }
          return send(connection, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
        }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return }
        sent += count
      }
      _ = shutdown(connection, Int32(SHUT_WR))
      // Until the client has read what it wants and closed: closing first could reset what it has not read yet.
      while true {
        let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { return }
      }
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
      guard bytes.count >= 4 else { return nil }
      for index in 3..<bytes.count
      where bytes[index - 3] == 13 && bytes[index - 2] == 10 && bytes[index - 1] == 13 && bytes[index] == 10 {
        return index + 1
      }
      return nil
    }
  }
#endif

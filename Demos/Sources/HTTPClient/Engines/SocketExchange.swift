#if canImport(Glibc)
  import Foundation
  import Glibc

  /// One request and its response on one connection, run on one thread.
  final class SocketExchange: @unchecked Sendable {
    // @unchecked: everything but `state` is touched only by the thread running `run()`; `state` is locked.
    private struct State {
      var isCancelled = false
      var wakeWriteEnd: Int32 = -1
    }

    private let request: HTTPRequest
    private let head: Data
    private let host: String
    private let port: Int
    private let hostDescription: String
    private let idleTimeout: TimeInterval
    private let deadline: TimeInterval
    private let maxResponseBytes: Int
    private let progress: (@Sendable (Int64) -> Void)?
    private let informational: (@Sendable (HTTPResponse.Informational) -> Void)?
    private let state = LockedValue(State())
    private var wakeReadEnd: Int32 = -1

    init(
      request: HTTPRequest, idleTimeout: TimeInterval, totalTimeout: TimeInterval, maxResponseBytes: Int,
      progress: (@Sendable (Int64) -> Void)?, informational: (@Sendable (HTTPResponse.Informational) -> Void)?
    ) throws {
      let url = request.url
      guard url.scheme?.lowercased() == "http", var host = url.host, !host.isEmpty else {
        throw HTTPError.invalidRequest("the socket transport only speaks plain http")
      }
      if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
      self.request = request
      self.host = host
      self.port = url.port ?? 80
      self.hostDescription = HTTPTransport.hostDescription(url)
      self.head = try Self.head(of: request, host: host)
      self.idleTimeout = idleTimeout
      self.deadline = Self.now() + totalTimeout
      self.maxResponseBytes = maxResponseBytes
      self.progress = progress
      self.informational = informational
    }

    /// Request line and header fields, ending with the blank line.
    private static func head(of request: HTTPRequest, host: String) throws -> Data {
      guard !request.method.isEmpty, request.method.allSatisfy({ $0.isLetter && $0.isASCII }) else {
        throw HTTPError.invalidRequest("the method \(request.method.debugDescription) is not valid")
      }
      guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
        throw HTTPError.invalidRequest("the URL cannot be sent")
      }
      var target = components.percentEncodedPath
      if target.isEmpty { target = "/" }
      if let query = components.percentEncodedQuery { target += "?" + query }
      guard target.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
        throw HTTPError.invalidRequest("the URL's path cannot be sent as it is")
      }
      var authority = host.contains(":") ? "[\(host)]" : host
      if let port = request.url.port { authority += ":\(port)" }
      var text = "\(request.method) \(target) HTTP/1.1\r\nHost: \(authority)\r\n"
      let managed: Set<String> = ["host", "content-length", "connection", "transfer-encoding", "expect"]
      for (name, value) in request.headers where !managed.contains(name.lowercased()) {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isTokenCharacter),
          value.unicodeScalars.allSatisfy({ $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) })
        else {
          throw HTTPError.invalidRequest("the header \(name.debugDescription) is not valid")
        }
        text += "\(name): \(value)\r\n"
      }
      let method = request.method.uppercased()
      if request.body.length > 0 || ["POST", "PUT", "PATCH"].contains(method) {
        text += "Content-Length: \(request.body.length)\r\n"
      }
      text += "Connection: close\r\n\r\n"
      return Data(text.utf8)
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
      guard scalar.isASCII else { return false }
      return CharacterSet.alphanumerics.contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
    }

    /// Stops the exchange from any thread: the running `poll` wakes and `run()` returns `CancellationError`.
    func cancel() {
      state.withLock { state in
        state.isCancelled = true
        if state.wakeWriteEnd >= 0 {
          var byte: UInt8 = 1
          _ = Glibc.write(state.wakeWriteEnd, &byte, 1)
        }
      }
    }

    private var isCancelled: Bool { state.withLock { $0.isCancelled } }

    // MARK: Running

    func run() -> Result<HTTPResponse, any Error> {
      var pipeEnds: [Int32] = [-1, -1]
      guard pipe(&pipeEnds) == 0 else {
        return .failure(HTTPError.invalidRequest("cannot create a pipe (too many open files?)"))
      }
      for end in pipeEnds { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
      for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      wakeReadEnd = pipeEnds[0]
      let cancelledEarly = state.withLock { state in
        state.wakeWriteEnd = pipeEnds[1]
        return state.isCancelled
      }
      defer {
        state.withLock { state in
          Glibc.close(state.wakeWriteEnd)
          state.wakeWriteEnd = -1
        }
        Glibc.close(wakeReadEnd)
      }
      if cancelledEarly { return .failure(CancellationError()) }
      do {
        let socket = try connect()
        defer { Glibc.close(socket) }
        return .success(try exchange(on: socket))
      } catch {
        return .failure(isCancelled ? CancellationError() : error)
      }
    }

    private static func now() -> TimeInterval {
      var spec = timespec()
      clock_gettime(CLOCK_MONOTONIC, &spec)
      return TimeInterval(spec.tv_sec) + TimeInterval(spec.tv_nsec) / 1e9
    }

    /// Waits until `socket` is ready for `events`, the exchange is cancelled, or a timeout passes; returns the
    /// socket's `revents`.
    private func wait(_ socket: Int32, for events: Int32, lastActivity: TimeInterval) throws -> Int32 {
      while true {
        let now = Self.now()
        let remaining = min(lastActivity + idleTimeout, deadline) - now
        guard remaining > 0 else { throw HTTPError.timedOut(host: hostDescription) }
        var fds = [
          pollfd(fd: socket, events: Int16(events), revents: 0),
          pollfd(fd: wakeReadEnd, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, 2, Int32(min(remaining * 1000, 60_000).rounded(.up)))
        if isCancelled { throw CancellationError() }
        if ready < 0 {
          if errno == EINTR { continue }
          throw HTTPError.connectionLost(host: hostDescription)
        }
        if ready > 0, fds[0].revents != 0 { return Int32(fds[0].revents) }
      }
    }

    // MARK: Connecting

    private func connect() throws -> Int32 {
      var hints = addrinfo()
      hints.ai_family = AF_UNSPEC
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      hints.ai_flags = AI_NUMERICSERV
      var addresses: UnsafeMutablePointer<addrinfo>?
      guard getaddrinfo(host, String(port), &hints, &addresses) == 0, let first = addresses else {
        throw HTTPError.cannotConnect(host: hostDescription)
      }
      defer { freeaddrinfo(addresses) }
      var failure: HTTPError = .cannotConnect(host: hostDescription)
      var candidate: UnsafeMutablePointer<addrinfo>? = first
      while let address = candidate {
        candidate = address.pointee.ai_next
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let socket = Glibc.socket(address.pointee.ai_family, flags, address.pointee.ai_protocol)
        guard socket >= 0 else { continue }
        do {
          try connect(socket, to: address.pointee)
          var one: Int32 = 1
          _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
          return socket
        } catch let error as HTTPError {
          Glibc.close(socket)
          failure = error
        } catch {
          Glibc.close(socket)
          throw error
        }
      }
      throw failure
    }

    private func connect(_ socket: Int32, to address: addrinfo) throws {
      if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return }
      guard errno == EINPROGRESS else { throw HTTPError.cannotConnect(host: hostDescription) }
      _ = try wait(socket, for: Int32(POLLOUT), lastActivity: Self.now())
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
        throw error == ETIMEDOUT
          ? HTTPError.timedOut(host: hostDescription) : HTTPError.cannotConnect(host: hostDescription)
      }
    }

    // MARK: Exchanging

    /// Writes the head and body while reading whatever the server answers; returns once the response is complete.
    private func exchange(on socket: Int32) throws -> HTTPResponse {
      var parser = HTTPResponseParser(requestMethod: request.method, maxBodyBytes: maxResponseBytes)
      var body = SocketBodyReader(parts: [.bytes(head)] + request.body.parts)
      let headLength = Int64(head.count)
      let bodyLength = request.body.length
      var sentInAll: Int64 = 0
      var isSending = true
      var answeredEarly = false
      var atEndOfStream = false
      var lastActivity = Self.now()
      var receiveBuffer = [UInt8](repeating: 0, count: 64 * 1024)
      var informationalDelivered = 0
      defer { body.close() }

      while true {
        let events = isSending ? Int32(POLLIN) | Int32(POLLOUT) : Int32(POLLIN)
        let revents = try wait(socket, for: events, lastActivity: lastActivity)

        if revents & (Int32(POLLIN) | Int32(POLLHUP) | Int32(POLLERR)) != 0 {
          let (received, ended) = try receive(on: socket, into: &receiveBuffer, parser: &parser)
          if received > 0 { lastActivity = Self.now() }
          atEndOfStream = atEndOfStream || ended
          while informationalDelivered < parser.informational.count {
            informational?(parser.informational[informationalDelivered])
            informationalDelivered += 1
          }
          if parser.finalHead != nil, isSending {
            // The server answered before the body was complete: stop sending (RFC 9112 §9.5).
            isSending = false
            answeredEarly = sentInAll < headLength + bodyLength
          }
          if parser.finalHead != nil, case let .complete(data) = try parser.body(atEndOfStream: atEndOfStream) {
            guard let final = parser.finalHead else { continue }
            let bodySent = max(sentInAll - headLength, 0)
            return HTTPResponse(
              status: final.status, headers: final.headers, body: data, url: request.url,
              informational: parser.informational, bodyBytesSent: bodySent,
              receivedWholeBody: !answeredEarly && bodySent == bodyLength)
          }
          if atEndOfStream {
            // Closed without a (complete) response: while sending, or after the whole request.
            throw HTTPError.connectionLost(host: hostDescription)
          }
        }

        if isSending, revents & Int32(POLLOUT) != 0 {
          switch try write(on: socket, from: &body) {
          case let .wrote(count):
            if count > 0 {
              sentInAll += Int64(count)
              lastActivity = Self.now()
              if sentInAll > headLength { progress?(sentInAll - headLength) }
            }
            if body.isFinished { isSending = false }
          case .peerClosed:
            // Keep reading: a response the server sent before closing may still be waiting.
            isSending = false
          }
        } else if isSending, revents & Int32(POLLERR) != 0 {
          isSending = false
        }
      }
    }

    /// Reads everything available into `parser`; returns the byte count and whether the peer closed its side.
    private func receive(
      on socket: Int32, into buffer: inout [UInt8], parser: inout HTTPResponseParser
    ) throws -> (Int, Bool) {
      var total = 0
      while true {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 {
          total += count
          try parser.consume(Data(buffer[0..<count]))
          continue
        }
        if count == 0 { return (total, true) }
        switch errno {
        case EAGAIN, EWOULDBLOCK: return (total, false)
        case EINTR: continue
        // A reset: whatever arrived before it has been read; the stream is over.
        default: return (total, true)
        }
      }
    }

    private enum WriteOutcome {
      case wrote(Int)
      case peerClosed
    }

    /// Writes as much of the remaining request as the socket takes without blocking.
    private func write(on socket: Int32, from body: inout SocketBodyReader) throws -> WriteOutcome {
      var written = 0
      while !body.isFinished {
        let chunk = try body.pending()
        let count = chunk.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if count > 0 {
          body.consume(count)
          written += count
          continue
        }
        switch errno {
        case EAGAIN, EWOULDBLOCK: return .wrote(written)
        case EINTR: continue
        default: return written > 0 ? .wrote(written) : .peerClosed
        }
      }
      return .wrote(written)
    }
  }
#endif

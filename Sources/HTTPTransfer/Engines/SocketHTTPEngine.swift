#if canImport(Glibc)
  import Foundation
  import Glibc

  /// A small HTTP/1.1 client on POSIX sockets for **plain `http://` peers on Linux** (a LAN upload server, a local
  /// S3): one connection per request (`Connection: close`), a `Content-Length` body written from memory and from
  /// files in 1 MiB reads, the response read while the body is still going out (a server may refuse early), no
  /// redirects followed, no proxy, no TLS — `https` and proxied hosts always go through URLSession.
  ///
  /// Why: FoundationNetworking spends ~1.2 s of CPU (0.23 s user, 1.06 s system) and ~100,000 context switches per
  /// 100 MB uploaded from a file, handing each ~40 KB between libcurl's thread, a dispatch body source and the
  /// delegate queue; `curl -F` needs 0.08 s and ~230 switches. This engine writes the same bytes from one thread.
  ///
  /// Each request runs on a thread of its own (blocking in `poll`, never on the cooperative pool); cancelling the
  /// calling task wakes it through a pipe and the request ends with `CancellationError`.
  ///
  /// ```swift
  /// let engine = SocketHTTPEngine(idleTimeout: 60, totalTimeout: 3600)
  /// let response = try await engine.send(request) { sent in print(sent) }
  /// ```
  final class SocketHTTPEngine: Sendable {
    let idleTimeout: TimeInterval
    let totalTimeout: TimeInterval
    let maxResponseBytes: Int

    /// An engine whose requests fail after `idleTimeout` seconds without a byte sent or received, or after
    /// `totalTimeout` seconds in all; response bodies larger than `maxResponseBytes` are refused.
    init(idleTimeout: TimeInterval, totalTimeout: TimeInterval, maxResponseBytes: Int = 8 << 20) {
      self.idleTimeout = max(idleTimeout, 0.001)
      self.totalTimeout = max(totalTimeout, 0.001)
      self.maxResponseBytes = maxResponseBytes
    }

    /// Sends `request` (an `http` URL) and returns the final response; `progress` gets the body bytes written to the
    /// connection so far, from the sending thread.
    func send(
      _ request: HTTPTransferRequest,
      progress: (@Sendable (Int64) -> Void)?
    ) async throws -> HTTPTransferResponse {
      let exchange = try SocketExchange(
        request: request, idleTimeout: idleTimeout, totalTimeout: totalTimeout, maxResponseBytes: maxResponseBytes,
        progress: progress)
      try Task.checkCancellation()
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPTransferResponse, any Error>) in
          let thread = Thread { continuation.resume(with: exchange.run()) }
          thread.name = "Unidirectional.SocketHTTPEngine"
          thread.start()
        }
      } onCancel: {
        exchange.cancel()
      }
    }
  }

  /// One request and its response on one connection, run on one thread.
  private final class SocketExchange: @unchecked Sendable {
    // @unchecked: everything but `state` is touched only by the thread running `run()`; `state` is locked.
    private struct State {
      var isCancelled = false
      var wakeWriteEnd: Int32 = -1
    }

    private let request: HTTPTransferRequest
    private let head: Data
    private let host: String
    private let port: Int
    private let hostDescription: String
    private let idleTimeout: TimeInterval
    private let deadline: TimeInterval
    private let maxResponseBytes: Int
    private let progress: (@Sendable (Int64) -> Void)?
    private let state = LockedValue(State())
    private var wakeReadEnd: Int32 = -1

    init(
      request: HTTPTransferRequest, idleTimeout: TimeInterval, totalTimeout: TimeInterval, maxResponseBytes: Int,
      progress: (@Sendable (Int64) -> Void)?
    ) throws {
      let url = request.url
      guard url.scheme?.lowercased() == "http", var host = url.host, !host.isEmpty else {
        throw ImageUploadError.invalidRequest("the socket transport only speaks plain http")
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
    }

    /// Request line and header fields, ending with the blank line.
    private static func head(of request: HTTPTransferRequest, host: String) throws -> Data {
      guard !request.method.isEmpty, request.method.allSatisfy({ $0.isLetter && $0.isASCII }) else {
        throw ImageUploadError.invalidRequest("the method \(request.method.debugDescription) is not valid")
      }
      guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
        throw ImageUploadError.invalidRequest("the URL cannot be sent")
      }
      var target = components.percentEncodedPath
      if target.isEmpty { target = "/" }
      if let query = components.percentEncodedQuery { target += "?" + query }
      guard target.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
        throw ImageUploadError.invalidRequest("the URL's path cannot be sent as it is")
      }
      var authority = host.contains(":") ? "[\(host)]" : host
      if let port = request.url.port { authority += ":\(port)" }
      var text = "\(request.method) \(target) HTTP/1.1\r\nHost: \(authority)\r\n"
      let managed: Set<String> = ["host", "content-length", "connection", "transfer-encoding", "expect"]
      for (name, value) in request.headers where !managed.contains(name.lowercased()) {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isTokenCharacter),
          value.unicodeScalars.allSatisfy({ $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) })
        else {
          throw ImageUploadError.invalidRequest("the header \(name.debugDescription) is not valid")
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

    func run() -> Result<HTTPTransferResponse, any Error> {
      var pipeEnds: [Int32] = [-1, -1]
      guard pipe(&pipeEnds) == 0 else {
        return .failure(ImageUploadError.invalidRequest("cannot create a pipe (too many open files?)"))
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
        guard remaining > 0 else { throw ImageUploadError.timedOut(host: hostDescription) }
        var fds = [
          pollfd(fd: socket, events: Int16(events), revents: 0),
          pollfd(fd: wakeReadEnd, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, 2, Int32(min(remaining * 1000, 60_000).rounded(.up)))
        if isCancelled { throw CancellationError() }
        if ready < 0 {
          if errno == EINTR { continue }
          throw ImageUploadError.connectionLost(host: hostDescription)
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
        throw ImageUploadError.cannotConnect(host: hostDescription)
      }
      defer { freeaddrinfo(addresses) }
      var failure: ImageUploadError = .cannotConnect(host: hostDescription)
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
        } catch let error as ImageUploadError {
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
      guard errno == EINPROGRESS else { throw ImageUploadError.cannotConnect(host: hostDescription) }
      _ = try wait(socket, for: Int32(POLLOUT), lastActivity: Self.now())
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
        throw error == ETIMEDOUT
          ? ImageUploadError.timedOut(host: hostDescription) : ImageUploadError.cannotConnect(host: hostDescription)
      }
    }

    // MARK: Exchanging

    /// Writes the head and body while reading whatever the server answers; returns once the response is complete.
    private func exchange(on socket: Int32) throws -> HTTPTransferResponse {
      var parser = HTTPResponseParser(requestMethod: request.method, maxBodyBytes: maxResponseBytes)
      var body = BodyReader(parts: [.bytes(head)] + request.body.parts)
      let headLength = Int64(head.count)
      let bodyLength = request.body.length
      var sentInAll: Int64 = 0
      var isSending = true
      var answeredEarly = false
      var atEndOfStream = false
      var lastActivity = Self.now()
      var receiveBuffer = [UInt8](repeating: 0, count: 64 * 1024)
      defer { body.close() }
      progress?(0)

      while true {
        let events = isSending ? Int32(POLLIN) | Int32(POLLOUT) : Int32(POLLIN)
        let revents = try wait(socket, for: events, lastActivity: lastActivity)

        if revents & (Int32(POLLIN) | Int32(POLLHUP) | Int32(POLLERR)) != 0 {
          let (received, ended) = try receive(on: socket, into: &receiveBuffer, parser: &parser)
          if received > 0 { lastActivity = Self.now() }
          atEndOfStream = atEndOfStream || ended
          if parser.finalHead != nil, isSending {
            // The server answered before the body was complete: stop sending (RFC 9112 §9.5).
            isSending = false
            answeredEarly = sentInAll < headLength + bodyLength
          }
          if parser.finalHead != nil, case let .complete(data) = try parser.body(atEndOfStream: atEndOfStream) {
            guard let final = parser.finalHead else { continue }
            let bodySent = max(sentInAll - headLength, 0)
            return HTTPTransferResponse(
              status: final.status, headers: final.headers, body: data, url: request.url,
              informational: parser.informational, bodyBytesSent: bodySent,
              receivedWholeBody: !answeredEarly && bodySent == bodyLength)
          }
          if atEndOfStream {
            // Closed without a (complete) response: while sending, or after the whole request.
            throw ImageUploadError.connectionLost(host: hostDescription)
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
    private func write(on socket: Int32, from body: inout BodyReader) throws -> WriteOutcome {
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

  /// The request's bytes in order: memory parts as they are, file parts read 1 MiB at a time with `pread` into one
  /// reused buffer.
  private struct BodyReader {
    private let parts: [HTTPRequestBody.Part]
    private var partIndex = 0
    private var offsetInPart: Int64 = 0
    /// `chunk[chunkOffset..<chunkEnd]` is read but not yet sent.
    private var chunk = Data()
    private var chunkOffset = 0
    private var chunkEnd = 0
    private var fileBuffer = Data()
    private var file: (url: URL, descriptor: Int32)?

    init(parts: [HTTPRequestBody.Part]) {
      self.parts = parts.filter { $0.length > 0 }
    }

    var isFinished: Bool { partIndex >= parts.count }

    /// The bytes to send next (never empty while not finished).
    mutating func pending() throws -> Data.SubSequence {
      if chunkOffset < chunkEnd { return chunk[chunkOffset..<chunkEnd] }
      switch parts[partIndex] {
      case let .bytes(data):
        chunk = data
        chunkOffset = 0
        chunkEnd = data.count
      case let .file(url, offset, length):
        let descriptor = try open(url)
        let count = Int(min(length - offsetInPart, 1 << 20))
        if fileBuffer.count < count { fileBuffer = Data(count: count) }
        var filled = 0
        while filled < count {
          let start = off_t(offset + offsetInPart) + off_t(filled)
          let read = fileBuffer.withUnsafeMutableBytes { raw in
            pread(descriptor, raw.baseAddress.map { $0 + filled }, count - filled, start)
          }
          if read < 0, errno == EINTR { continue }
          guard read > 0 else {
            throw ImageUploadError.unreadableFile(
              path: url.path, reason: read == 0 ? "the file became shorter while uploading" : "I/O error while reading")
          }
          filled += read
        }
        chunk = fileBuffer
        fileBuffer = Data()  // handed to `chunk`; taken back when it is sent, so the buffer is never copied
        chunkOffset = 0
        chunkEnd = count
      }
      return chunk[chunkOffset..<chunkEnd]
    }

    /// `count` bytes of what ``pending()`` returned were sent.
    mutating func consume(_ count: Int) {
      chunkOffset += count
      offsetInPart += Int64(count)
      guard chunkOffset >= chunkEnd else { return }
      if case .file = parts[partIndex] { fileBuffer = chunk }
      chunk = Data()
      chunkOffset = 0
      chunkEnd = 0
      if offsetInPart >= parts[partIndex].length {
        partIndex += 1
        offsetInPart = 0
      }
    }

    private mutating func open(_ url: URL) throws -> Int32 {
      if let file, file.url == url { return file.descriptor }
      close()
      let descriptor = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw ImageUploadError.unreadableFile(path: url.path, reason: "permission denied or I/O error")
      }
      file = (url, descriptor)
      return descriptor
    }

    mutating func close() {
      if let file { Glibc.close(file.descriptor) }
      file = nil
    }
  }
#endif

import Foundation

/// Reads an HTTP/1.1 response from bytes as they arrive: any 1xx interim responses, then the final head, then the
/// body framed by `Content-Length`, `Transfer-Encoding: chunked`, or the end of the connection (RFC 9112).
///
/// Bounded: a head larger than 64 KiB or a body larger than `maxBodyBytes` is an error, never an allocation.
///
/// ```swift
/// var parser = HTTPResponseParser(requestMethod: "PUT", maxBodyBytes: 1 << 20)
/// try parser.consume(Data("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
/// parser.finalHead?.status          // 200
/// try parser.body(atEndOfStream: false)   // .complete(Data("ok".utf8))
/// ```
struct HTTPResponseParser {
  /// The status line and header fields of a response.
  struct Head: Equatable {
    let status: Int
    let headers: HTTPHeaderFields
  }

  /// Where the body ends.
  enum Framing: Equatable {
    case none
    case length(Int)
    case chunked
    case untilClose
  }

  /// The body, once it is complete.
  enum Body: Equatable {
    case incomplete
    case complete(Data)
  }

  static let maxHeadBytes = 64 * 1024

  let requestMethod: String
  let maxBodyBytes: Int
  /// Received bytes not yet parsed: a head in progress, or a body framed by length or by the connection's end.
  private var buffer = Data()
  /// A chunked body is decoded as it arrives instead of kept in `buffer`.
  private var chunked: ChunkedBodyDecoder?
  /// The bytes received after the final head.
  private var bodyBytesReceived = 0
  /// Where in `buffer` the search for a head's end resumes: each read's bytes are searched once, not the whole head
  /// again (a server sending its head a byte at a time would make that quadratic).
  private var headSearchStart = 0
  /// The bytes the searches for heads' ends have gone through (tests hold them to the head's length).
  private(set) var headBytesScanned = 0
  private(set) var informational: [HTTPResponse.Informational] = []
  private(set) var finalHead: Head?
  private(set) var framing: Framing = .none

  init(requestMethod: String, maxBodyBytes: Int) {
    self.requestMethod = requestMethod.uppercased()
    self.maxBodyBytes = maxBodyBytes
  }

  /// Adds received bytes and parses every head they complete, and what they bring of a chunked body.
  mutating func consume(_ bytes: Data) throws {
    if finalHead != nil {
      bodyBytesReceived += bytes.count
      try checkBodySize()
      if chunked != nil {
        try chunked?.feed(bytes)
        return
      }
    }
    buffer.append(bytes)
    while finalHead == nil {
      headBytesScanned += buffer.count - headSearchStart
      guard let (headEnd, bodyStart) = Self.endOfHead(in: buffer, from: buffer.startIndex + headSearchStart) else {
        guard buffer.count <= Self.maxHeadBytes else {
          throw HTTPError.invalidResponse("the response head is larger than 64 KiB")
        }
        // A head's end (LF LF or LF CR LF) that the next bytes complete starts in the last two bytes at the earliest.
        headSearchStart = max(0, buffer.count - 2)
        return
      }
      let head = try Self.parseHead(buffer[buffer.startIndex..<headEnd])
      buffer = Data(buffer[bodyStart...])
      headSearchStart = 0
      switch head.status {
      case 101:
        throw HTTPError.invalidResponse("the server switched protocols")
      case 100..<200:
        informational.append(HTTPResponse.Informational(status: head.status, headers: head.headers))
      default:
        finalHead = head
        framing = try Self.framing(of: head, requestMethod: requestMethod)
        // The bytes after the head are the body's first ones.
        bodyBytesReceived = buffer.count
        try checkBodySize()
        if framing == .chunked {
          var decoder = ChunkedBodyDecoder(maxBodyBytes: maxBodyBytes)
          try decoder.feed(buffer)
          chunked = decoder
          buffer = Data()
        }
      }
    }
  }

  /// The bytes of a chunked body decoding has looked at: its length on the wire, however the reads cut it.
  var chunkedBytesScanned: Int { chunked?.scannedBytes ?? 0 }

  private func checkBodySize() throws {
    switch framing {
    case let .length(length) where length > maxBodyBytes:
      throw HTTPError.invalidResponse("the response body is larger than \(maxBodyBytes) bytes")
    case .untilClose:
      // Every byte until the connection's end is the body: held to the limit exactly (64 KiB more got through when
      // it shared the chunked body's slack).
      if bodyBytesReceived > maxBodyBytes {
        throw HTTPError.invalidResponse("the response body is larger than \(maxBodyBytes) bytes")
      }
    case .chunked:
      // Chunk framing adds a few bytes per chunk (the decoder holds the body itself to the limit); anything far
      // beyond the limit is too large whatever it holds.
      if bodyBytesReceived > maxBodyBytes + 64 * 1024 {
        throw HTTPError.invalidResponse("the response body is larger than \(maxBodyBytes) bytes")
      }
    default:
      break
    }
  }

  /// The final response's body if it is complete; `atEndOfStream` says the connection has been closed by the peer.
  ///
  /// Throws when the body can no longer complete (the stream ended early, or the chunk framing is invalid).
  func body(atEndOfStream: Bool) throws -> Body {
    guard finalHead != nil else {
      if atEndOfStream { throw HTTPError.invalidResponse("the connection closed before a response") }
      return .incomplete
    }
    switch framing {
    case .none:
      return .complete(Data())
    case let .length(length):
      if buffer.count >= length { return .complete(Data(buffer.prefix(length))) }
      if atEndOfStream { throw HTTPError.invalidResponse("the response body ended early") }
      return .incomplete
    case .untilClose:
      return atEndOfStream ? .complete(buffer) : .incomplete
    case .chunked:
      if let data = chunked?.body { return .complete(data) }
      if atEndOfStream { throw HTTPError.invalidResponse("the chunked response body ended early") }
      return .incomplete
    }
  }

  // MARK: Head

  /// The end of the first head in `data` and where what follows it starts (after `CRLF CRLF`, or `LF LF`), looking
  /// from `start` on.
  private static func endOfHead(in data: Data, from start: Data.Index) -> (Data.Index, Data.Index)? {
    var index = start
    while let newline = data[index...].firstIndex(of: 0x0A) {
      let next = data.index(after: newline)
      if next < data.endIndex, data[next] == 0x0A { return (newline, data.index(after: next)) }
      if next < data.endIndex, data[next] == 0x0D {
        let afterCR = data.index(after: next)
        if afterCR < data.endIndex, data[afterCR] == 0x0A { return (newline, data.index(after: afterCR)) }
        if afterCR == data.endIndex { return nil }
      }
      index = next
    }
    return nil
  }

  private static func parseHead(_ bytes: Data) throws -> Head {
    // Split on the bytes: in a Swift String "\r\n" is one Character, so splitting text on "\n" would not split it.
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
      Substring(String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self))
    }
    guard !lines.isEmpty else { throw HTTPError.invalidResponse("an empty response head") }
    let statusLine = lines.removeFirst()
    let statusParts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), statusParts[1].count == 3,
      let status = Int(statusParts[1]), (100..<600).contains(status)
    else {
      throw HTTPError.invalidResponse("not an HTTP/1.x status line")
    }
    var fields: [(name: String, value: String)] = []
    for line in lines where !line.isEmpty {
      guard let first = line.first, first != " ", first != "\t", let colon = line.firstIndex(of: ":") else {
        throw HTTPError.invalidResponse("a malformed response header line")
      }
      let name = line[..<colon]
      guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" }) else {
        throw HTTPError.invalidResponse("a malformed response header name")
      }
      let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
      fields.append((String(name), value))
    }
    return Head(status: status, headers: HTTPHeaderFields(fields))
  }

  private static func framing(of head: Head, requestMethod: String) throws -> Framing {
    if requestMethod == "HEAD" || head.status == 204 || head.status == 304 { return .none }
    if let codings = head.headers["Transfer-Encoding"] {
      let last = codings.split(separator: ",").last?.trimmingCharacters(in: .whitespaces).lowercased()
      return last == "chunked" ? .chunked : .untilClose
    }
    if let value = head.headers["Content-Length"] {
      let values = Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
      guard values.count == 1, let only = values.first, !only.isEmpty, only.allSatisfy(\.isASCIIDigit),
        let length = Int(only)
      else {
        throw HTTPError.invalidResponse("an invalid Content-Length")
      }
      return .length(length)
    }
    return .untilClose
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

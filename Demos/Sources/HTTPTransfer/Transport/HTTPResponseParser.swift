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
  private var buffer = Data()
  private(set) var informational: [HTTPTransferResponse.Informational] = []
  private(set) var finalHead: Head?
  private(set) var framing: Framing = .none

  init(requestMethod: String, maxBodyBytes: Int) {
    self.requestMethod = requestMethod.uppercased()
    self.maxBodyBytes = maxBodyBytes
  }

  /// Adds received bytes and parses every head they complete.
  mutating func consume(_ bytes: Data) throws {
    buffer.append(bytes)
    while finalHead == nil {
      guard let (headEnd, bodyStart) = Self.endOfHead(in: buffer) else {
        guard buffer.count <= Self.maxHeadBytes else {
          throw ImageUploadError.invalidResponse("the response head is larger than 64 KiB")
        }
        return
      }
      let head = try Self.parseHead(buffer[buffer.startIndex..<headEnd])
      buffer = Data(buffer[bodyStart...])
      switch head.status {
      case 101:
        throw ImageUploadError.invalidResponse("the server switched protocols")
      case 100..<200:
        informational.append(HTTPTransferResponse.Informational(status: head.status, headers: head.headers))
      default:
        finalHead = head
        framing = try Self.framing(of: head, requestMethod: requestMethod)
      }
    }
    switch framing {
    case let .length(length) where length > maxBodyBytes:
      throw ImageUploadError.invalidResponse("the response body is larger than \(maxBodyBytes) bytes")
    case .chunked, .untilClose:
      // Chunk framing adds a few bytes per chunk; anything far beyond the limit is too large whatever it holds.
      if buffer.count > maxBodyBytes + 64 * 1024 {
        throw ImageUploadError.invalidResponse("the response body is larger than \(maxBodyBytes) bytes")
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
      if atEndOfStream { throw ImageUploadError.invalidResponse("the connection closed before a response") }
      return .incomplete
    }
    switch framing {
    case .none:
      return .complete(Data())
    case let .length(length):
      if buffer.count >= length { return .complete(Data(buffer.prefix(length))) }
      if atEndOfStream { throw ImageUploadError.invalidResponse("the response body ended early") }
      return .incomplete
    case .untilClose:
      return atEndOfStream ? .complete(buffer) : .incomplete
    case .chunked:
      if let data = try Self.dechunk(buffer, maxBodyBytes: maxBodyBytes) { return .complete(data) }
      if atEndOfStream { throw ImageUploadError.invalidResponse("the chunked response body ended early") }
      return .incomplete
    }
  }

  // MARK: Head

  /// The end of the first head in `data` and where what follows it starts (after `CRLF CRLF`, or `LF LF`).
  private static func endOfHead(in data: Data) -> (Data.Index, Data.Index)? {
    var index = data.startIndex
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
    guard !lines.isEmpty else { throw ImageUploadError.invalidResponse("an empty response head") }
    let statusLine = lines.removeFirst()
    let statusParts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), statusParts[1].count == 3,
      let status = Int(statusParts[1]), (100..<600).contains(status)
    else {
      throw ImageUploadError.invalidResponse("not an HTTP/1.x status line")
    }
    var fields: [(name: String, value: String)] = []
    for line in lines where !line.isEmpty {
      guard let first = line.first, first != " ", first != "\t", let colon = line.firstIndex(of: ":") else {
        throw ImageUploadError.invalidResponse("a malformed response header line")
      }
      let name = line[..<colon]
      guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" }) else {
        throw ImageUploadError.invalidResponse("a malformed response header name")
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
        throw ImageUploadError.invalidResponse("an invalid Content-Length")
      }
      return .length(length)
    }
    return .untilClose
  }

  // MARK: Chunked

  /// The decoded body if `data` holds a whole chunked body (through the last chunk and trailers), else nil.
  private static func dechunk(_ data: Data, maxBodyBytes: Int) throws -> Data? {
    var body = Data()
    var index = data.startIndex
    func line() -> Substring? {
      guard let newline = data[index...].firstIndex(of: 0x0A) else { return nil }
      var text = Substring(String(decoding: data[index..<newline], as: UTF8.self))
      if text.hasSuffix("\r") { text = text.dropLast() }
      index = data.index(after: newline)
      return text
    }
    while true {
      guard let sizeLine = line() else { return nil }
      let hex = sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
      // Hex digits only: `Int(_:radix:)` also takes a sign, and a negative size traps in the index arithmetic below.
      guard let hex, !hex.isEmpty, hex.count <= 15, hex.allSatisfy(\.isASCIIHexDigit), let size = Int(hex, radix: 16)
      else {
        throw ImageUploadError.invalidResponse("an invalid chunk size")
      }
      if size == 0 {
        // Trailer fields, up to an empty line.
        while true {
          guard let trailer = line() else { return nil }
          if trailer.isEmpty { return body }
        }
      }
      guard body.count + size <= maxBodyBytes else {
        throw ImageUploadError.invalidResponse("the response body is larger than \(maxBodyBytes) bytes")
      }
      guard data.distance(from: index, to: data.endIndex) >= size else { return nil }
      let end = data.index(index, offsetBy: size)
      body.append(data[index..<end])
      index = end
      guard let terminator = line() else { return nil }
      guard terminator.isEmpty else { throw ImageUploadError.invalidResponse("a chunk without its CRLF") }
    }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
  fileprivate var isASCIIHexDigit: Bool { isASCIIDigit || ("a"..."f").contains(self) || ("A"..."F").contains(self) }
}

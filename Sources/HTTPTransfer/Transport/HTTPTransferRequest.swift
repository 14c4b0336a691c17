import Foundation

/// One HTTP request as the upload transport sends it: method, URL, headers in order, and a body made of byte
/// strings and file ranges, so a multipart form or a part of a file is sent straight from disk without staging.
///
/// ```swift
/// var request = HTTPTransferRequest(method: "PUT", url: presignedURL)
/// request.setHeader("Content-Type", "image/png")
/// request.body = try .file(fileURL)   // read from disk as it is sent
/// ```
public struct HTTPTransferRequest: Sendable {
  /// `GET`, `PUT`, `POST`, …
  public var method: String
  /// Where the request goes.
  public var url: URL
  /// Header fields in the order they are sent; `Host`, `Content-Length`, `Connection` and `User-Agent` are set by
  /// the transport.
  public var headers: [(name: String, value: String)]
  /// What is sent after the head.
  public var body: HTTPRequestBody

  /// A request with `headers` in order and `body`.
  public init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: HTTPRequestBody = .empty) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }

  /// The value of header `name` (case-insensitive), if set.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// Sets header `name` to `value`, replacing any earlier value.
  public mutating func setHeader(_ name: String, _ value: String) {
    removeHeader(name)
    headers.append((name, value))
  }

  /// Removes header `name` (case-insensitive).
  public mutating func removeHeader(_ name: String) {
    headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
  }
}

/// A request body: byte strings and ranges of files, sent in order, with a length known up front
/// (`Content-Length`; never chunked).
///
/// ```swift
/// let body = HTTPRequestBody([.bytes(Data("--b\r\n…\r\n\r\n".utf8)), .file(model, offset: 0, length: size)])
/// body.length   // the header's bytes + size
/// ```
public struct HTTPRequestBody: Sendable {
  /// One piece of the body.
  public enum Part: Sendable, Equatable {
    /// Bytes held in memory (headers of a multipart part, a JSON document).
    case bytes(Data)
    /// `length` bytes of the file at `url` starting at `offset`, read from disk as they are sent.
    case file(URL, offset: Int64, length: Int64)

    /// The piece's number of bytes.
    public var length: Int64 {
      switch self {
      case let .bytes(data): return Int64(data.count)
      case let .file(_, _, length): return length
      }
    }
  }

  /// The pieces in the order they are sent, empty ones left out.
  public let parts: [Part]

  /// A body of `parts`, in order.
  public init(_ parts: [Part]) {
    self.parts = parts.filter { $0.length > 0 }
  }

  /// No body.
  public static let empty = HTTPRequestBody([])

  /// `data` as the whole body.
  public static func bytes(_ data: Data) -> HTTPRequestBody { HTTPRequestBody([.bytes(data)]) }

  /// The whole file at `url` (its current size, checked as a readable regular file).
  public static func file(_ url: URL) throws -> HTTPRequestBody {
    HTTPRequestBody([.file(url, offset: 0, length: try UploadFile.byteCount(of: url))])
  }

  /// The number of bytes in the body: its `Content-Length`.
  public var length: Int64 { parts.reduce(0) { $0 + $1.length } }

  /// The whole file when the body is exactly one file from its start, for transports that can only send files.
  var wholeFile: URL? {
    guard parts.count == 1, case let .file(url, 0, length) = parts[0],
      (try? UploadFile.byteCount(of: url)) == length
    else { return nil }
    return url
  }

  /// Writes the body to the new file `destination` in 1 MiB chunks (for a transport that cannot send parts).
  func write(to destination: URL) throws {
    guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
      throw ImageUploadError.invalidRequest("cannot create a temporary file for the request body")
    }
    let output: FileHandle
    do {
      output = try FileHandle(forWritingTo: destination)
    } catch {
      throw ImageUploadError.invalidRequest("cannot open the temporary file for the request body")
    }
    defer { try? output.close() }
    func emit(_ data: Data) throws {
      do {
        try output.write(contentsOf: data)
      } catch {
        throw ImageUploadError.invalidRequest("cannot write the request body to a temporary file (disk full?)")
      }
    }
    for part in parts {
      switch part {
      case let .bytes(data):
        try emit(data)
      case let .file(url, offset, length):
        let input: FileHandle
        do {
          input = try FileHandle(forReadingFrom: url)
          try input.seek(toOffset: UInt64(offset))
        } catch {
          throw ImageUploadError.unreadableFile(path: url.path, reason: "permission denied or I/O error")
        }
        defer { try? input.close() }
        var remaining = length
        while remaining > 0 {
          let chunk: Data
          do {
            chunk = try input.read(upToCount: Int(min(remaining, 1 << 20))) ?? Data()
          } catch {
            throw ImageUploadError.unreadableFile(path: url.path, reason: "I/O error while reading")
          }
          guard !chunk.isEmpty else {
            throw ImageUploadError.unreadableFile(path: url.path, reason: "the file became shorter while uploading")
          }
          try emit(chunk)
          remaining -= Int64(chunk.count)
        }
      }
    }
  }
}

/// A response as the transport received it: the final status and headers, the body (bounded), any 1xx
/// responses before it, the URL that answered (after redirects), and how much of the request body was sent.
///
/// ```swift
/// let response = try await transport.send(request, redirects: .sameOrigin)
/// guard (200..<300).contains(response.status) else { … }
/// response.header("ETag")
/// ```
public struct HTTPTransferResponse: Sendable {
  /// A 1xx interim response (e.g. `104 Upload Resumption Supported` with a `Location`).
  public struct Informational: Sendable, Equatable {
    /// `100`–`199`.
    public let status: Int
    /// Its header fields.
    public let headers: HTTPHeaderFields
  }

  /// The final status.
  public let status: Int
  /// The final header fields.
  public let headers: HTTPHeaderFields
  /// The body (bounded by the engine).
  public let body: Data
  /// The URL of the request that got this response.
  public let url: URL
  /// The 1xx responses before the final one, in order.
  public let informational: [Informational]
  /// Bytes of the request body written to the connection, when the transport can tell (nil for URLSession).
  public let bodyBytesSent: Int64?
  /// False when the server answered before the whole request body was sent (and the rest was not sent).
  public let receivedWholeBody: Bool

  /// The value of header `name` (case-insensitive).
  public func header(_ name: String) -> String? { headers[name] }
}

/// Response header fields: case-insensitive lookup, repeated fields joined with ", " as RFC 9110 allows.
///
/// ```swift
/// let headers = HTTPHeaderFields([("Upload-Offset", "42"), ("Vary", "a"), ("vary", "b")])
/// headers["upload-offset"]   // "42"
/// headers["Vary"]            // "a, b"
/// ```
public struct HTTPHeaderFields: Sendable, Equatable {
  /// The fields in the order they came.
  public private(set) var fields: [(name: String, value: String)] = []

  /// Header fields in this order.
  public init(_ fields: [(name: String, value: String)] = []) {
    self.fields = fields
  }

  /// The value of `name` (case-insensitive), repeated fields joined with ", ".
  public subscript(name: String) -> String? {
    let values = fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    return values.isEmpty ? nil : values.joined(separator: ", ")
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
  }
}

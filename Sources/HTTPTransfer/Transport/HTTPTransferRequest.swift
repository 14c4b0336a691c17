import Foundation

/// One HTTP request as the upload transport sends it: method, URL, headers in order, and a body made of byte
/// strings and file ranges, so a multipart form or a part of a file is sent straight from disk without staging.
///
/// ```swift
/// let form = MultipartFormBody(boundary: "b", fieldName: "file", filename: "m.usdz", contentType: "model/x")
/// var request = HTTPTransferRequest(method: "POST", url: endpoint)
/// request.setHeader("Content-Type", form.requestContentType)
/// request.body = try form.body(for: fileURL)   // header bytes + the file + closing boundary
/// ```
struct HTTPTransferRequest: Sendable {
  var method: String
  var url: URL
  /// Header fields in the order they are sent; `Host`, `Content-Length`, `Connection` and `User-Agent` are set by
  /// the transport.
  var headers: [(name: String, value: String)]
  var body: HTTPRequestBody

  init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: HTTPRequestBody = .empty) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }

  /// The value of header `name` (case-insensitive), if set.
  func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// Sets header `name` to `value`, replacing any earlier value.
  mutating func setHeader(_ name: String, _ value: String) {
    removeHeader(name)
    headers.append((name, value))
  }

  /// Removes header `name` (case-insensitive).
  mutating func removeHeader(_ name: String) {
    headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
  }
}

/// A request body: byte strings and ranges of files, sent in order, with a length known up front
/// (`Content-Length`; never chunked).
struct HTTPRequestBody: Sendable {
  enum Part: Sendable, Equatable {
    /// Bytes held in memory (headers of a multipart part, a JSON document).
    case bytes(Data)
    /// `length` bytes of the file at `url` starting at `offset`, read from disk as they are sent.
    case file(URL, offset: Int64, length: Int64)

    var length: Int64 {
      switch self {
      case let .bytes(data): return Int64(data.count)
      case let .file(_, _, length): return length
      }
    }
  }

  let parts: [Part]

  init(_ parts: [Part]) {
    self.parts = parts.filter { $0.length > 0 }
  }

  static let empty = HTTPRequestBody([])

  /// `data` as the whole body.
  static func bytes(_ data: Data) -> HTTPRequestBody { HTTPRequestBody([.bytes(data)]) }

  /// The whole file at `url` (its current size, checked as a readable regular file).
  static func file(_ url: URL) throws -> HTTPRequestBody {
    HTTPRequestBody([.file(url, offset: 0, length: try UploadFile.byteCount(of: url))])
  }

  /// The number of bytes in the body: its `Content-Length`.
  var length: Int64 { parts.reduce(0) { $0 + $1.length } }

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
struct HTTPTransferResponse: Sendable {
  /// A 1xx interim response (e.g. `104 Upload Resumption Supported` with a `Location`).
  struct Informational: Sendable, Equatable {
    let status: Int
    let headers: HTTPHeaderFields
  }

  let status: Int
  let headers: HTTPHeaderFields
  let body: Data
  /// The URL of the request that got this response.
  let url: URL
  let informational: [Informational]
  /// Bytes of the request body written to the connection, when the transport can tell (nil for URLSession).
  let bodyBytesSent: Int64?
  /// False when the server answered before the whole request body was sent (and the rest was not sent).
  let receivedWholeBody: Bool

  /// The value of header `name` (case-insensitive).
  func header(_ name: String) -> String? { headers[name] }
}

/// Response header fields: case-insensitive lookup, repeated fields joined with ", " as RFC 9110 allows.
struct HTTPHeaderFields: Sendable, Equatable {
  private(set) var fields: [(name: String, value: String)] = []

  init(_ fields: [(name: String, value: String)] = []) {
    self.fields = fields
  }

  subscript(name: String) -> String? {
    let values = fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    return values.isEmpty ? nil : values.joined(separator: ", ")
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
  }
}

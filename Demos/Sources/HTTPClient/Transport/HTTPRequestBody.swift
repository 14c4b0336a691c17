import Foundation

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

  /// The number of bytes in the body: its `Content-Length` (`Int64.max` for parts that add up to more, which no
  /// file can give: reading such a body fails with ``HTTPError/unreadableFile(path:reason:)``).
  public var length: Int64 {
    parts.reduce(0) { sum, part in
      let (total, overflow) = sum.addingReportingOverflow(part.length)
      return overflow ? .max : total
    }
  }

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
      throw HTTPError.invalidRequest("cannot create a temporary file for the request body")
    }
    let output: FileHandle
    do {
      output = try FileHandle(forWritingTo: destination)
    } catch {
      throw HTTPError.invalidRequest("cannot open the temporary file for the request body")
    }
    defer { try? output.close() }
    func emit(_ data: Data) throws {
      do {
        try output.write(contentsOf: data)
      } catch {
        throw HTTPError.invalidRequest("cannot write the request body to a temporary file (disk full?)")
      }
    }
    for part in parts {
      switch part {
      case let .bytes(data):
        try emit(data)
      case let .file(url, offset, length):
        _ = try Part.end(ofRangeIn: url, offset: offset, length: length)
        let input: FileHandle
        do {
          input = try FileHandle(forReadingFrom: url)
          try input.seek(toOffset: UInt64(offset))
        } catch {
          throw HTTPError.unreadableFile(path: url.path, reason: "permission denied or I/O error")
        }
        defer { try? input.close() }
        var remaining = length
        while remaining > 0 {
          let chunk: Data
          do {
            chunk = try input.read(upToCount: Int(min(remaining, 1 << 20))) ?? Data()
          } catch {
            throw HTTPError.unreadableFile(path: url.path, reason: "I/O error while reading")
          }
          guard !chunk.isEmpty else {
            throw HTTPError.unreadableFile(path: url.path, reason: "the file became shorter while uploading")
          }
          try emit(chunk)
          remaining -= Int64(chunk.count)
        }
      }
    }
  }
}

extension HTTPRequestBody.Part {
  /// The end of the file range `offset ..< offset + length`, or the error every reader of a body throws for a range
  /// no file has — a negative offset, an end past `Int64.max` — before it seeks or reads (a seek to a negative
  /// offset and the end's sum would trap).
  static func end(ofRangeIn url: URL, offset: Int64, length: Int64) throws -> Int64 {
    let (end, overflow) = offset.addingReportingOverflow(max(0, length))
    guard offset >= 0, !overflow else {
      throw HTTPError.unreadableFile(
        path: url.path, reason: "no file has \(length) bytes at offset \(offset)")
    }
    return end
  }
}

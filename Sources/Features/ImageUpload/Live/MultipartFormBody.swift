import Foundation

/// Writes a `multipart/form-data` body (RFC 7578) with one file field to a file, copying the file in 1 MiB
/// chunks, so that a large upload never sits in memory whole.
struct MultipartFormBody {
  /// Separates the parts; must not occur in the file (a random UUID makes that vanishingly unlikely).
  let boundary: String
  /// The form field's name, e.g. `file`.
  let fieldName: String
  /// The file name sent to the server, escaped on output.
  let filename: String
  /// The part's `Content-Type`.
  let contentType: String

  /// The request's `Content-Type` header.
  var requestContentType: String { "multipart/form-data; boundary=\(boundary)" }

  /// Writes the whole body to `destination` (created, must not exist) and returns its size.
  func write(contentsOf source: URL, to destination: URL) throws -> Int64 {
    guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
      throw ImageUploadError.invalidRequest("cannot create a temporary file for the request body")
    }
    let input: FileHandle
    do {
      input = try FileHandle(forReadingFrom: source)
    } catch {
      throw ImageUploadError.unreadableFile(path: source.path, reason: "permission denied or I/O error")
    }
    defer { try? input.close() }
    let output: FileHandle
    do {
      output = try FileHandle(forWritingTo: destination)
    } catch {
      throw ImageUploadError.invalidRequest("cannot open the temporary file for the request body")
    }
    defer { try? output.close() }

    var written: Int64 = 0
    func emit(_ data: Data) throws {
      do {
        try output.write(contentsOf: data)
      } catch {
        throw ImageUploadError.invalidRequest("cannot write the request body to a temporary file (disk full?)")
      }
      written += Int64(data.count)
    }
    try emit(Data(header.utf8))
    while true {
      let chunk: Data
      do {
        guard let read = try input.read(upToCount: 1 << 20), !read.isEmpty else { break }
        chunk = read
      } catch {
        throw ImageUploadError.unreadableFile(path: source.path, reason: "I/O error while reading")
      }
      try emit(chunk)
    }
    try emit(Data("\r\n--\(boundary)--\r\n".utf8))
    return written
  }

  /// The boundary line and the part's headers, up to the blank line before the file's bytes.
  var header: String {
    "--\(boundary)\r\n"
      + "Content-Disposition: form-data; name=\"\(Self.escaped(fieldName))\"; "
      + "filename=\"\(Self.escaped(filename))\"\r\n"
      + "Content-Type: \(contentType)\r\n"
      + "\r\n"
  }

  /// `value` as a quoted-string parameter the way browsers send it (WHATWG HTML): `"` → `%22`, CR → `%0D`,
  /// LF → `%0A`, so a name can neither end the parameter nor start a new header line.
  static func escaped(_ value: String) -> String {
    var result = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "%22"
      case "\r": result += "%0D"
      case "\n": result += "%0A"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

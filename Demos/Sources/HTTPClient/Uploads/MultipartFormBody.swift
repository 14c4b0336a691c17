import Foundation

/// A `multipart/form-data` body (RFC 7578) with one file field, as parts the transport sends in order (the file
/// straight from disk), so that a large upload never sits in memory whole and is never copied first.
///
/// ```swift
/// let form = MultipartFormBody(
///   boundary: "b-\(UUID().uuidString)", fieldName: "file", filename: "scan.usdz", contentType: "model/vnd.usdz+zip")
/// var request = HTTPRequest(method: "POST", url: endpoint)
/// request.setHeader("Content-Type", form.requestContentType)
/// request.body = form.body(for: fileURL, size: size)   // header bytes + the file + closing boundary
/// ```
public struct MultipartFormBody: Sendable {
  /// Separates the parts; must not occur in the file (a random UUID makes that vanishingly unlikely).
  public let boundary: String
  /// The form field's name, e.g. `file`.
  public let fieldName: String
  /// The file name sent to the server, escaped on output.
  public let filename: String
  /// The part's `Content-Type`.
  public let contentType: String

  /// A form whose one part is the file `filename` of `contentType` in the field `fieldName`.
  public init(boundary: String, fieldName: String, filename: String, contentType: String) {
    self.boundary = boundary
    self.fieldName = fieldName
    self.filename = filename
    self.contentType = contentType
  }

  /// The request's `Content-Type` header.
  public var requestContentType: String { "multipart/form-data; boundary=\(boundary)" }

  /// The request body for the `size`-byte file at `source`: the part's header, the file read from disk as it is
  /// sent, and the closing boundary.
  public func body(for source: URL, size: Int64) -> HTTPRequestBody {
    HTTPRequestBody([
      .bytes(Data(header.utf8)), .file(source, offset: 0, length: size), .bytes(Data(trailer.utf8)),
    ])
  }

  /// The boundary line and the part's headers, up to the blank line before the file's bytes.
  var header: String {
    "--\(boundary)\r\n"
      + "Content-Disposition: form-data; name=\"\(Self.escaped(fieldName))\"; "
      + "filename=\"\(Self.escaped(filename))\"\r\n"
      + "Content-Type: \(contentType)\r\n"
      + "\r\n"
  }

  /// The line break ending the file's bytes and the closing boundary.
  var trailer: String { "\r\n--\(boundary)--\r\n" }

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

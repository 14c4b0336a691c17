import Foundation

/// A file to upload resumably, with what the server is told about it.
///
/// ```swift
/// let file = ResumableUploadFile(url: scanURL, contentType: "model/vnd.usdz+zip", filename: "scan.usdz")
/// ```
public struct ResumableUploadFile: Hashable, Sendable, Codable {
  /// The local file (a regular, readable file).
  public var url: URL
  /// Sent as the upload's `Content-Type`.
  public var contentType: String
  /// Sent as `Content-Disposition: inline; filename="…"` (the server keeps its extension); nil sends none.
  public var filename: String?

  /// The file at `url`, sent as `contentType` under `filename`.
  public init(url: URL, contentType: String = "application/octet-stream", filename: String? = nil) {
    self.url = url
    self.contentType = contentType
    self.filename = filename
  }
}

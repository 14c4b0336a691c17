import Foundation

/// A model file a reconstruction produced, with what its preview shows.
///
/// ```swift
/// let model = try await reconstruction.reconstruct(request) { print($0) }
/// print(model.fileName, model.byteCount, model.sha256)   // model-….usdz 165000 3f…
/// ```
public struct ReconstructedModel: Hashable, Sendable, Codable {
  /// The model file.
  public var fileURL: URL
  /// Its size in bytes.
  public var byteCount: Int64
  /// Its MIME type, `model/vnd.usdz+zip`.
  public var contentType: String
  /// How many shots it was made from.
  public var shotCount: Int
  /// How many files the archive holds (the scene and the shots).
  public var entryCount: Int
  /// The SHA-256 of the file (64 lowercase hex digits), to check an upload arrived unchanged.
  public var sha256: String

  /// The MIME type of USDZ files.
  public static let usdzContentType = "model/vnd.usdz+zip"

  /// A model stored at `fileURL`.
  public init(
    fileURL: URL, byteCount: Int64, contentType: String = ReconstructedModel.usdzContentType, shotCount: Int,
    entryCount: Int, sha256: String
  ) {
    self.fileURL = fileURL
    self.byteCount = byteCount
    self.contentType = contentType
    self.shotCount = shotCount
    self.entryCount = entryCount
    self.sha256 = sha256
  }

  /// The file's name.
  public var fileName: String { fileURL.lastPathComponent }
}

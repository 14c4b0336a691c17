/// What the server said about a file stored through ``MultipartUploader``.
///
/// ```swift
/// let receipt = try await uploader.upload(fileAt: url, filename: "scan.usdz", contentType: "model/vnd.usdz+zip")
/// receipt.size     // bytes the server stored
/// receipt.sha256   // their SHA-256, when the server reports it
/// ```
public struct MultipartUploadReceipt: Hashable, Sendable {
  /// The server's id of the stored file.
  public var fileID: String
  /// How many bytes the server stored.
  public var size: Int64
  /// The SHA-256 (lowercase hex) of the stored bytes, if the server reports it.
  public var sha256: String?
  /// The server's message, e.g. "File uploaded successfully".
  public var message: String

  /// A receipt with the server's answer.
  public init(fileID: String, size: Int64, sha256: String?, message: String) {
    self.fileID = fileID
    self.size = size
    self.sha256 = sha256
    self.message = message
  }
}

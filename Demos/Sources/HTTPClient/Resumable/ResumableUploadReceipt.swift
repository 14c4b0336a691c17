import Foundation

/// The end of a successful upload: the final response of the resource the upload was for, checked to describe
/// every byte of the file, and what it took to get there.
///
/// ```swift
/// let receipt = try await uploader.upload(file)
/// receipt.fileID        // "4f1c…" (from the server's JSON, when it sends one)
/// receipt.resumptions   // 2 after two dropped connections
/// ```
public struct ResumableUploadReceipt: Hashable, Sendable, Codable {
  /// How the file went to the server.
  public enum Mode: Hashable, Sendable, Codable {
    /// The draft, in this interop version.
    case resumable(interopVersion: Int)
    /// One plain request: the server does not speak the draft.
    case plain
  }

  /// How the file went to the server.
  public var mode: Mode
  /// The final response's status (2xx).
  public var status: Int
  /// The final response's body.
  public var body: Data
  /// `fileId` from a JSON body `{"fileId", "size", "sha256"}`, when present.
  public var fileID: String?
  /// `sha256` from the JSON body, when present (lowercase hex).
  public var sha256: String?
  /// The file's size: the server confirmed this many bytes.
  public var size: Int64
  /// Request body bytes handed to the network in all, over every request (≥ `size` after interruptions).
  public var bytesSent: Int64
  /// How many times the upload continued after an interruption (or a pause).
  public var resumptions: Int

  /// A receipt; see the properties.
  public init(
    mode: Mode, status: Int, body: Data, fileID: String?, sha256: String?, size: Int64, bytesSent: Int64,
    resumptions: Int
  ) {
    self.mode = mode
    self.status = status
    self.body = body
    self.fileID = fileID
    self.sha256 = sha256
    self.size = size
    self.bytesSent = bytesSent
    self.resumptions = resumptions
  }
}

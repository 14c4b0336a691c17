import Foundation

/// Where an interrupted or paused upload continues: the server's upload resource and what the client checked
/// about the file when it started. Keep it (it is `Codable`) to resume later, even in another process.
///
/// ```swift
/// var resource: ResumableUploadResource?
/// _ = try await uploader.upload(file) { if case let .created(created) = $0 { resource = created } }
/// // … paused or interrupted …
/// let receipt = try await uploader.upload(file, resuming: resource)
/// ```
public struct ResumableUploadResource: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The upload resource (`Location` of the server's `104` or `201`).
  public var url: URL
  /// The interop version both sides speak for this upload (6 or 8).
  public var interopVersion: Int
  /// The limits the server announced.
  public var limits: UploadLimits
  /// The file's size when the upload started; a resumption refuses a file of another size.
  public var fileSize: Int64
  /// The file's modification date when the upload started; a resumption refuses a file changed since.
  public var fileModificationDate: Date?

  /// A resource at `url` for a file of `fileSize` bytes.
  public init(
    url: URL, interopVersion: Int, limits: UploadLimits = UploadLimits(), fileSize: Int64,
    fileModificationDate: Date? = nil
  ) {
    self.url = url
    self.interopVersion = interopVersion
    self.limits = limits
    self.fileSize = fileSize
    self.fileModificationDate = fileModificationDate
  }

  /// The resource by host and port only (its path is a capability: whoever knows it may append).
  public var description: String {
    "ResumableUploadResource(\(HTTPTransport.hostDescription(url)), interop \(interopVersion), "
      + "\(fileSize) bytes)"
  }
}

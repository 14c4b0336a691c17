import Foundation

/// A picked image after loading: its bytes are known to be readable, with their content type and size.
///
/// The bytes stay in the file: uploads stream them from disk instead of holding every image in memory.
///
/// ```swift
/// let images = try await imageLoader.load([PickedImage(fileURL: url)])
/// images[0].contentType   // "image/jpeg"
/// ```
public struct LoadedImage: Hashable, Sendable, Codable {
  /// Where the bytes are.
  public var fileURL: URL
  /// The MIME type of the bytes, e.g. `image/png`.
  public var contentType: String
  /// The size of the file in bytes.
  public var byteCount: Int64

  /// A loaded image of `byteCount` bytes of `contentType` at `fileURL`.
  public init(fileURL: URL, contentType: String, byteCount: Int64) {
    self.fileURL = fileURL
    self.contentType = contentType
    self.byteCount = byteCount
  }
}

import Foundation
import ImageUpload

/// One uploaded image in the gallery: the server's media id and the local file it was uploaded from.
///
/// ```swift
/// let item = GalleryItem(id: "m1", fileURL: URL(fileURLWithPath: "/photos/kite.png"))
/// item.name   // "kite.png"
/// ```
public struct GalleryItem: Identifiable, Hashable, Sendable, Codable {
  /// The server's media id.
  public var id: MediaID
  /// The file that was uploaded.
  public var fileURL: URL
  /// Marked as a favorite from the list.
  public var isFavorite: Bool

  /// An item for the upload of `fileURL` that the server filed as `id`.
  public init(id: MediaID, fileURL: URL, isFavorite: Bool = false) {
    self.id = id
    self.fileURL = fileURL
    self.isFavorite = isFavorite
  }

  /// The file name shown in the list.
  public var name: String { fileURL.lastPathComponent }
}

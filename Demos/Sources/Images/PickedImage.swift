import Foundation

/// An image the user picked. In a headless host (and on Linux) a picked image is a file on disk; a photo picker
/// on Apple platforms would export its item to a file first.
///
/// ```swift
/// store.send(.itemsPicked([PickedImage(fileURL: URL(fileURLWithPath: "/photos/cat.jpg"))]))
/// ```
public struct PickedImage: Hashable, Sendable, Codable {
  /// Where the image's bytes are.
  public var fileURL: URL

  /// A picked image stored at `fileURL`.
  public init(fileURL: URL) { self.fileURL = fileURL }
}

import Foundation

/// Where a simulated capture session's shots come from: images it draws itself, or a folder of real images.
///
/// ```swift
/// let images = try CaptureShotSource.images(in: URL(fileURLWithPath: "/photos/mug"))   // sorted by name
/// let client = CaptureSessionClient.simulator(
///   script: .standard(shotCount: images.count), shots: .folder(URL(fileURLWithPath: "/photos/mug")))
/// ```
public enum CaptureShotSource: Hashable, Sendable {
  /// PNG images of `width`×`height` pixels drawn by the simulator (a gradient per shot).
  case rendered(width: Int, height: Int)
  /// The image files in a folder, in name order, one per shot; each is copied into the session's images folder.
  case folder(URL)

  /// 96×72 pixel PNGs: about 20 KB a shot.
  public static let rendered = CaptureShotSource.rendered(width: 96, height: 72)

  /// The file extensions counted as images (compared without case).
  public static let imageExtensions: Set<String> = [
    "jpg", "jpeg", "png", "heic", "heif", "tif", "tiff", "webp", "gif", "bmp",
  ]

  /// The image files directly in `folder`, sorted by name; hidden files and subfolders are skipped.
  ///
  /// - Throws: ``CaptureSessionError/unreadableShotFolder(path:reason:)`` or
  ///   ``CaptureSessionError/noImagesInShotFolder(path:)``.
  public static func images(in folder: URL) throws(CaptureSessionError) -> [URL] {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
      throw .unreadableShotFolder(path: folder.path, reason: "it does not exist")
    }
    guard isDirectory.boolValue else {
      throw .unreadableShotFolder(path: folder.path, reason: "it is not a folder")
    }
    let names: [String]
    do {
      names = try manager.contentsOfDirectory(atPath: folder.path)
    } catch {
      throw .unreadableShotFolder(path: folder.path, reason: "it cannot be listed")
    }
    let images = names.sorted().filter { name in
      guard !name.hasPrefix("."), imageExtensions.contains((name as NSString).pathExtension.lowercased()) else {
        return false
      }
      var isFolder: ObjCBool = false
      let path = folder.appendingPathComponent(name).path
      return manager.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
    }
    guard !images.isEmpty else { throw .noImagesInShotFolder(path: folder.path) }
    return images.map { folder.appendingPathComponent($0) }
  }
}

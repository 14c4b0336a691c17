import Foundation
import Images
import LocalFiles

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

  /// The image files directly in `folder`, sorted by name; hidden files, subfolders and files without an image
  /// extension are skipped. Every image is checked by its first bytes before any shot is taken.
  ///
  /// - Throws: ``CaptureSessionError/unreadableShotFolder(path:reason:)``,
  ///   ``CaptureSessionError/noImagesInShotFolder(path:)``, ``CaptureSessionError/unreadableShot(path:reason:)``
  ///   for a file that cannot be read or is no regular file (a named pipe would block the session forever), or
  ///   ``CaptureSessionError/notAnImage(path:expected:found:)`` for a file whose bytes are not its extension's
  ///   format (a text file named `.jpg`).
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
    let candidates = names.sorted().filter { name in
      guard !name.hasPrefix("."), imageExtensions.contains((name as NSString).pathExtension.lowercased()) else {
        return false
      }
      var isFolder: ObjCBool = false
      let path = folder.appendingPathComponent(name).path
      return !(manager.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue)
    }
    guard !candidates.isEmpty else { throw .noImagesInShotFolder(path: folder.path) }
    let images = candidates.map { folder.appendingPathComponent($0) }
    for image in images { try checkImage(image) }
    return images
  }

  /// Checks that `image` is a readable regular file whose first bytes are the format its extension names.
  static func checkImage(_ image: URL) throws(CaptureSessionError) {
    let header: Data
    do {
      header = try RegularFile.read(image, upTo: 32)
    } catch {
      throw .unreadableShot(path: image.path, reason: error.reason)
    }
    let expected = ShotFormat(fileExtension: image.pathExtension)
    let found = ImageContentType.detecting([UInt8](header))
    guard let found, expected.contentTypes.contains(found) else {
      throw .notAnImage(path: image.path, expected: expected.name, found: found.map(ShotFormat.name(of:)))
    }
  }
}

/// The image format a shot's file extension promises, for checking its bytes.
private struct ShotFormat {
  /// The content types the bytes may have.
  let contentTypes: Set<String>
  /// `"a JPEG"`.
  let name: String

  init(fileExtension: String) {
    switch fileExtension.lowercased() {
    case "jpg", "jpeg": (contentTypes, name) = (["image/jpeg"], "a JPEG")
    case "png": (contentTypes, name) = (["image/png"], "a PNG")
    case "heic", "heif": (contentTypes, name) = (["image/heic", "image/heif"], "a HEIC/HEIF")
    case "tif", "tiff": (contentTypes, name) = (["image/tiff"], "a TIFF")
    case "webp": (contentTypes, name) = (["image/webp"], "a WebP")
    case "gif": (contentTypes, name) = (["image/gif"], "a GIF")
    case "bmp": (contentTypes, name) = (["image/bmp"], "a BMP")
    default: (contentTypes, name) = ([], "an")
    }
  }

  /// `"a PNG image"` for `image/png`.
  static func name(of contentType: String) -> String {
    let format = contentType.replacingOccurrences(of: "image/", with: "").uppercased()
    return (format.first.map { "AEIOU".contains($0) } == true ? "an " : "a ") + format + " image"
  }
}

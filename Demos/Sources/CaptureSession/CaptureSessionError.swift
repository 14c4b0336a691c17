import Foundation

/// Why a capture session could not run, in words the user can read (`description`).
///
/// ```swift
/// let error = CaptureSessionError.notEnoughShots(folder: "/photos/mug", available: 3, needed: 8)
/// print(error)   // "The shot folder mug has 3 images; the session needs 8."
/// ```
public enum CaptureSessionError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The folder of shots cannot be listed.
  case unreadableShotFolder(path: String, reason: String)
  /// The folder of shots holds no image files.
  case noImagesInShotFolder(path: String)
  /// The script takes more shots than the folder has images.
  case notEnoughShots(folder: String, available: Int, needed: Int)
  /// A shot's source image (in the shot folder) cannot be read: not a regular file, or the system refused.
  case unreadableShot(path: String, reason: String)
  /// A shot's source image is not the image its name says: `expected` is its extension's format, `found` what its
  /// first bytes are (nil: no image format at all).
  case notAnImage(path: String, expected: String, found: String?)
  /// A shot could not be written to the session's images folder.
  case cannotWriteShot(path: String, reason: String)
  /// The client cannot run: an unimplemented test dependency.
  case notConfigured(String)
  /// Another failure, described.
  case failed(String)

  /// Turns any error a session throws into a `CaptureSessionError`.
  public init(_ error: any Error) {
    switch error {
    case let error as CaptureSessionError: self = error
    case let error as CustomStringConvertible: self = .failed(error.description)
    default: self = .failed("unexpected error \(type(of: error))")
    }
  }

  public var description: String {
    switch self {
    case let .unreadableShotFolder(path, reason):
      return "Cannot read the shot folder \(Self.name(path)): \(reason)."
    case let .noImagesInShotFolder(path):
      return "The shot folder \(Self.name(path)) has no images (JPEG, PNG, HEIC, TIFF, WebP, GIF or BMP)."
    case let .notEnoughShots(folder, available, needed):
      return "The shot folder \(Self.name(folder)) has \(available) image\(available == 1 ? "" : "s"); "
        + "the session needs \(needed)."
    case let .unreadableShot(path, reason):
      return "Cannot read the shot image \(path): \(reason)."
    case let .notAnImage(path, expected, found):
      let what = found.map { "its bytes are those of \($0)" } ?? "its first bytes match no image format"
      return "The shot image \(path) is not \(expected) image: \(what)."
    case let .cannotWriteShot(path, reason):
      return "Cannot write the shot \(Self.name(path)): \(reason)."
    case let .notConfigured(detail):
      return "The capture session is not configured: \(detail)"
    case let .failed(detail):
      return "The capture session failed: \(detail)"
    }
  }

  /// The last path component: enough for the user to recognise the file or folder.
  private static func name(_ path: String) -> String {
    let name = URL(fileURLWithPath: path).lastPathComponent
    return name.isEmpty ? path : name
  }
}

/// Why a generated image could not be saved.
///
/// ```swift
/// ImageSaveError.fileExists(path: "/tmp/a.png").description   // "/tmp/a.png already exists; nothing was overwritten."
/// ```
public enum ImageSaveError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A file is already at the path: it is left as it was.
  case fileExists(path: String)
  /// The folder could not be created (e.g. a file is in the way, or no permission).
  case folderUnavailable(path: String, reason: String)
  /// Writing failed.
  case writeFailed(path: String, reason: String)

  /// What went wrong, naming the path.
  public var description: String {
    switch self {
    case let .fileExists(path):
      return "\(path) already exists; nothing was overwritten."
    case let .folderUnavailable(path, reason):
      return "Could not create the folder \(path): \(reason)"
    case let .writeFailed(path, reason):
      return "Could not write \(path): \(reason)"
    }
  }
}

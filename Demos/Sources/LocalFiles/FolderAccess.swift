import Foundation

/// Checks, before any work is done, that files can be written into a folder that exists or is still to be created,
/// and creates folders with errors in words.
///
/// ```swift
/// if let problem = FolderAccess.problem(writingInto: URL(fileURLWithPath: "generated/kites")) {
///   print("--out: \(problem)")   // "/home/me/generated is a file, not a folder"
/// }
/// ```
public enum FolderAccess {
  /// Why files cannot be written into `folder`, or nil when they can as far as the file system tells in advance:
  /// the folder, or its nearest existing ancestor (where it will be created), must be a writable folder.
  public static func problem(writingInto folder: URL) -> String? {
    var current = folder.standardizedFileURL
    while true {
      var info = stat()
      if stat(current.path, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(current.path) is a file, not a folder" }
        guard access(current.path, W_OK | X_OK) == 0 else {
          return "\(current.path) is not writable (\(FileErrorReason.words(forErrno: errno)))"
        }
        return nil
      }
      let code = errno
      guard code == ENOENT || code == ENOTDIR else {
        return "\(current.path): \(FileErrorReason.words(forErrno: code))"
      }
      let parent = current.deletingLastPathComponent()
      guard parent.path != current.path else { return "\(current.path): no such folder" }
      current = parent
    }
  }

  /// Creates `folder` and its missing parents (nothing happens when it exists); the error says why in words.
  public static func create(_ folder: URL) throws(FolderAccessError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue {
      return
    }
    if let problem = problem(writingInto: folder) { throw FolderAccessError(path: folder.path, reason: problem) }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw FolderAccessError(path: folder.path, reason: FileErrorReason.words(for: error))
    }
  }
}

/// A folder that could not be created: its path and why, in words.
///
/// ```swift
/// FolderAccessError(path: "/tmp/a/b", reason: "/tmp/a is a file, not a folder").description
/// // "Could not create the folder /tmp/a/b: /tmp/a is a file, not a folder"
/// ```
public struct FolderAccessError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The folder.
  public var path: String
  /// Why, in words.
  public var reason: String

  public var description: String { "Could not create the folder \(path): \(reason)" }
}

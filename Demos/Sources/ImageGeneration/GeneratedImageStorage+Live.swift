import Foundation
import LocalFiles

extension GeneratedImageStorage {
  /// The file system: creates the file's folder (and its parents) when missing, writes the bytes to a hidden
  /// temporary file next to it and links that into place without ever replacing an existing file — a reader sees
  /// the whole image or nothing. A failed write removes its temporary file.
  ///
  /// ```swift
  /// try await GeneratedImageStorage.live.save(png, URL(fileURLWithPath: "generated/kite.png"))
  /// ```
  public static let live = GeneratedImageStorage { data, url in
    let folder = url.deletingLastPathComponent()
    do throws(FolderAccessError) {
      try FolderAccess.create(folder)
    } catch {
      throw ImageSaveError.folderUnavailable(path: folder.path, reason: error.reason)
    }
    guard !FileManager.default.fileExists(atPath: url.path) else {
      throw ImageSaveError.fileExists(path: url.path)
    }
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.lowercased()).partial")
    do throws(SystemError) {
      try write(data, toNewFile: temporary.path)
    } catch {
      unlink(temporary.path)
      throw ImageSaveError.writeFailed(path: url.path, reason: FileErrorReason.words(forErrno: error.code))
    }
    defer { unlink(temporary.path) }
    try moveIntoPlace(temporary.path, url.path)
  }

  /// An `errno` value from a failed system call.
  private struct SystemError: Error {
    let code: Int32
  }

  /// Creates `path` (it must not exist), writes all of `data` and flushes it to the disk.
  private static func write(_ data: Data, toNewFile path: String) throws(SystemError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw SystemError(code: errno) }
    var failure: Int32?
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == nil { failure = errno }
    if let failure { throw SystemError(code: failure) }
  }

  /// Gives the finished temporary file its name; fails with ``ImageSaveError/fileExists(path:)`` rather than
  /// replace a file that appeared meanwhile. `link` is atomic and never replaces; where the file system has no
  /// hard links, an existence check and `rename` do.
  private static func moveIntoPlace(_ temporary: String, _ destination: String) throws(ImageSaveError) {
    if link(temporary, destination) == 0 { return }
    let code = errno
    if code == EEXIST { throw .fileExists(path: destination) }
    guard [EPERM, ENOTSUP, EOPNOTSUPP, EXDEV, EMLINK, ENOSYS].contains(code) else {
      throw .writeFailed(path: destination, reason: FileErrorReason.words(forErrno: code))
    }
    guard !FileManager.default.fileExists(atPath: destination) else { throw .fileExists(path: destination) }
    guard rename(temporary, destination) == 0 else {
      throw .writeFailed(path: destination, reason: FileErrorReason.words(forErrno: errno))
    }
  }
}

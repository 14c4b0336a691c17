import Foundation
import Unidirectional

/// The file an ``ActionRecorder`` writes: created (or truncated) with owner-only permissions, written with
/// `write(2)` from one thread at a time, synchronized to disk when closed.
final class ActionLogFile: @unchecked Sendable {
  let path: String
  private var descriptor: Int32

  /// Creates the file at `url`; an existing one is truncated when `replacing`, else left alone and refused with
  /// ``ActionLogError/fileExists(path:)`` (one `open` with `O_EXCL`: no window between a check and the open).
  init(url: URL, replacing: Bool) throws(ActionLogError) {
    path = url.path
    descriptor = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC | (replacing ? O_TRUNC : O_EXCL), 0o600)
    if descriptor < 0 {
      if errno == EEXIST, !replacing { throw .fileExists(path: url.path) }
      throw .cannotOpen(path: url.path, reason: String(cString: strerror(errno)))
    }
  }

  deinit {
    _ = close()
  }

  /// Writes all of `bytes`; returns the error if it could not.
  func write(_ bytes: [UInt8]) -> ActionLogError? {
    guard descriptor >= 0 else { return .cannotWrite(path: path, reason: "the file is closed") }
    return bytes.withUnsafeBytes { buffer -> ActionLogError? in
      var offset = 0
      while offset < buffer.count {
        guard let base = buffer.baseAddress else { return nil }
        #if canImport(Darwin)
          let result = Darwin.write(descriptor, base + offset, buffer.count - offset)
        #else
          let result = Glibc.write(descriptor, base + offset, buffer.count - offset)
        #endif
        if result < 0 {
          if errno == EINTR { continue }
          return .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        offset += result
      }
      return nil
    }
  }

  /// Synchronizes and closes the file (once); returns the error if that failed.
  func close() -> ActionLogError? {
    guard descriptor >= 0 else { return nil }
    defer { descriptor = -1 }
    var error: ActionLogError?
    if fsync(descriptor) != 0, errno != EINVAL {
      error = .cannotWrite(path: path, reason: String(cString: strerror(errno)))
    }
    #if canImport(Darwin)
      let closed = Darwin.close(descriptor)
    #else
      let closed = Glibc.close(descriptor)
    #endif
    if closed != 0, error == nil { error = .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
    return error
  }
}

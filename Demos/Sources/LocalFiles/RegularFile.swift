import Foundation

/// Reads files that must be regular files (images picked by a user, shots from a folder): a named pipe, device or
/// folder that merely has an image's name is refused at once instead of blocking the reader forever.
///
/// ```swift
/// let header = try RegularFile.read(URL(fileURLWithPath: "IMG_1.png"), upTo: 32)
/// _ = try RegularFile.read(logURL, upTo: 0)   // only checks that it can be opened and is a regular file
/// // a FIFO named IMG_2.png: throws RegularFileError.notARegularFile(kind: "a named pipe (FIFO)")
/// ```
public enum RegularFile {
  /// The first `limit` bytes of the regular file at `url`, or all of them when `limit` is nil.
  public static func read(_ url: URL, upTo limit: Int? = nil) throws(RegularFileError) -> Data {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. It changes nothing for a regular
    // file, and the type is checked on the open descriptor, so nothing can be swapped in between.
    let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(code: errno) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw .system(code: errno) }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(kind: Self.kind(info.st_mode)) }
    var data = Data()
    let wanted = limit ?? Int(info.st_size)
    if wanted > 0 { data.reserveCapacity(wanted) }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while limit.map({ data.count < $0 }) ?? true {
      let chunk = min(buffer.count, limit.map { $0 - data.count } ?? buffer.count)
      let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, chunk) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .system(code: errno)
      }
      if count == 0 { break }
      data.append(contentsOf: buffer[0..<count])
    }
    return data
  }

  private static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a folder"
    case S_IFIFO: "a named pipe (FIFO)"
    case S_IFCHR, S_IFBLK: "a device"
    case S_IFSOCK: "a socket"
    default: "an unknown kind of file"
    }
  }
}

/// Why ``RegularFile`` could not read a file, in words (``reason``).
public enum RegularFileError: Error, Sendable, Hashable {
  /// It is a folder, a named pipe, a device or a socket.
  case notARegularFile(kind: String)
  /// The system refused (`errno`).
  case system(code: Int32)

  /// `"it is a named pipe (FIFO), not a regular file"`, `"permission denied"`.
  public var reason: String {
    switch self {
    case let .notARegularFile(kind): "it is \(kind), not a regular file"
    case let .system(code): FileErrorReason.words(forErrno: code)
    }
  }
}

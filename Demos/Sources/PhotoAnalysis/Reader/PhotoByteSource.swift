#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Random-access bytes a photo is read from. ``PhotoMetadataReader`` asks only for the ranges it needs — the
/// first bytes, each segment header, the metadata segments — so a 50 MB photo costs a few kilobytes of reads.
///
/// ```swift
/// struct CountingSource: PhotoByteSource {
///   var base: PhotoBytes
///   var requested = 0
///   mutating func read(at offset: Int, count: Int) throws(PhotoAnalysisError) -> [UInt8] {
///     requested += count
///     return try base.read(at: offset, count: count)
///   }
/// }
/// ```
public protocol PhotoByteSource {
  /// Up to `count` bytes starting at `offset`; fewer, or none, only where the source ends.
  mutating func read(at offset: Int, count: Int) throws(PhotoAnalysisError) -> [UInt8]
}

/// Bytes in memory.
///
/// ```swift
/// try PhotoMetadataReader.read(from: PhotoBytes(Array(data)))
/// ```
public struct PhotoBytes: PhotoByteSource, Sendable {
  public let bytes: [UInt8]

  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  public func read(at offset: Int, count: Int) -> [UInt8] {
    guard offset >= 0, count > 0, offset < bytes.count else { return [] }
    return Array(bytes[offset..<offset + min(count, bytes.count - offset)])
  }
}

/// A file read with `pread`, never read whole. Closed when released.
///
/// ```swift
/// let file = try PhotoFile(path: "/photos/cat.jpg")
/// let metadata = try PhotoMetadataReader.read(from: file)
/// ```
public final class PhotoFile: PhotoByteSource {
  public let path: String
  private let descriptor: Int32

  /// Opens `path` for reading; throws ``PhotoAnalysisError/unreadableFile(path:reason:)``.
  public init(path: String) throws(PhotoAnalysisError) {
    self.path = path
    descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw .unreadableFile(path: path, reason: Self.errorText()) }
  }

  deinit { close(descriptor) }

  public func read(at offset: Int, count: Int) throws(PhotoAnalysisError) -> [UInt8] {
    guard offset >= 0, count > 0 else { return [] }
    var failure: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = 0
      while initialized < count {
        let result = pread(
          descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
        if result > 0 {
          initialized += result
        } else if result == 0 {
          break
        } else if errno != EINTR {
          failure = errno
          break
        }
      }
    }
    guard failure == 0 else { throw .unreadableFile(path: path, reason: Self.errorText(failure)) }
    return bytes
  }

  private static func errorText(_ code: Int32 = errno) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}

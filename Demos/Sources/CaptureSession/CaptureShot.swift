import Foundation

/// One image a capture session wrote: its number in the session (from 1), where it is, and its size.
///
/// ```swift
/// let shot = CaptureShot(number: 1, fileURL: imagesDirectory.appendingPathComponent("shot-001.png"), byteCount: 912)
/// ```
public struct CaptureShot: Hashable, Sendable, Codable {
  /// The shot's number in its session, from 1.
  public var number: Int
  /// The image file.
  public var fileURL: URL
  /// The file's size in bytes.
  public var byteCount: Int64

  /// A shot numbered `number` stored at `fileURL`, `byteCount` bytes long.
  public init(number: Int, fileURL: URL, byteCount: Int64) {
    self.number = number
    self.fileURL = fileURL
    self.byteCount = byteCount
  }
}

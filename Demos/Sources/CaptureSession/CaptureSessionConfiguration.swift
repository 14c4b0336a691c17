import Foundation

/// What a capture session needs to start: the folder it writes its shots to.
///
/// ```swift
/// let configuration = CaptureSessionConfiguration(
///   imagesDirectory: URL(fileURLWithPath: "/tmp/scan-1/images", isDirectory: true))
/// ```
public struct CaptureSessionConfiguration: Hashable, Sendable, Codable {
  /// Where the session writes its shots (created if missing).
  public var imagesDirectory: URL

  /// A session writing its shots into `imagesDirectory`.
  public init(imagesDirectory: URL) {
    self.imagesDirectory = imagesDirectory
  }
}

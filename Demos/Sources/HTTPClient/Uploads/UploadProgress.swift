/// How much of an upload has been sent.
///
/// ```swift
/// let progress = UploadProgress(completedBytes: 512, totalBytes: 2048)
/// progress.fractionCompleted   // 0.25
/// progress.percent             // 25
/// ```
public struct UploadProgress: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Bytes sent so far, over all items.
  public var completedBytes: Int64
  /// Bytes to send in total, over all items.
  public var totalBytes: Int64

  /// Progress of `completedBytes` out of `totalBytes`.
  public init(completedBytes: Int64, totalBytes: Int64) {
    self.completedBytes = completedBytes
    self.totalBytes = totalBytes
  }

  /// The share sent, from 0 to 1 (1 when there is nothing to send).
  public var fractionCompleted: Double {
    guard totalBytes > 0 else { return 1 }
    return min(1, max(0, Double(completedBytes) / Double(totalBytes)))
  }

  /// The share sent in whole percent, rounded down, from 0 to 100.
  public var percent: Int {
    guard totalBytes > 0 else { return 100 }
    return Int(min(100, max(0, completedBytes * 100 / totalBytes)))
  }

  /// E.g. `25% (512 of 2048 bytes)`.
  public var description: String { "\(percent)% (\(completedBytes) of \(totalBytes) bytes)" }
}

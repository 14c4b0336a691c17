import Foundation
import Images

/// One image a generation service returned: its bytes (already checked to be a PNG, JPEG or WebP), its format, and
/// what the service said about it when it said anything.
///
/// ```swift
/// let image = GeneratedImage(id: "a1", data: pngData, format: .png, seed: 42)
/// try image.data.write(to: folder.appendingPathComponent("a1.\(image.format.fileExtension)"))
/// ```
public struct GeneratedImage: Sendable, Hashable, Identifiable {
  /// The service's identifier for the image (or one the client made up when the service gives none).
  public var id: String
  /// The encoded image.
  public var data: Data
  /// The encoding of `data`, from its magic bytes.
  public var format: ImageFormat
  /// The seed the service generated the image with, when it reports one (Karlo does).
  public var seed: UInt64?
  /// Whether the service's safety checker flagged the image, when it ran one.
  public var nsfwContentDetected: Bool?
  /// The safety checker's score from 0 to 1, when it ran.
  public var nsfwScore: Double?

  /// An image with the given bytes and metadata.
  public init(
    id: String, data: Data, format: ImageFormat, seed: UInt64? = nil, nsfwContentDetected: Bool? = nil,
    nsfwScore: Double? = nil
  ) {
    self.id = id
    self.data = data
    self.format = format
    self.seed = seed
    self.nsfwContentDetected = nsfwContentDetected
    self.nsfwScore = nsfwScore
  }
}

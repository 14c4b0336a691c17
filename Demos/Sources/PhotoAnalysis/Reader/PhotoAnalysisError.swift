/// Why a photo could not be analysed. A photo without any metadata is *not* an error: it gets a report with a low
/// score (see ``OriginalityScore``).
///
/// ```swift
/// do {
///   let metadata = try PhotoMetadataReader.read(fileAt: url)
/// } catch .invalidImage(let reason) {
///   print("not a photo:", reason)
/// } catch {
///   print(error)   // "The photo's metadata could not be read: the Exif segment has no TIFF header"
/// }
/// ```
public enum PhotoAnalysisError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The bytes are not a JPEG, PNG or TIFF image (the reason says what they start with).
  case invalidImage(String)
  /// The image is recognised but its structure is broken where the metadata lives.
  case metadataExtractionFailed(String)
  /// The file could not be opened or read.
  case unreadableFile(path: String, reason: String)

  public var description: String {
    switch self {
    case let .invalidImage(reason): "Not an image: \(reason)"
    case let .metadataExtractionFailed(reason): "The photo's metadata could not be read: \(reason)"
    case let .unreadableFile(path, reason): "Could not read \(path): \(reason)"
    }
  }

  /// A short machine-readable name: `invalidImage`, `metadataExtractionFailed` or `unreadableFile`.
  public var kind: String {
    switch self {
    case .invalidImage: "invalidImage"
    case .metadataExtractionFailed: "metadataExtractionFailed"
    case .unreadableFile: "unreadableFile"
    }
  }
}

/// What an upload is for; the server files media of each type in its own place (`profile/…`, `archive/…`).
///
/// The parent feature chooses it:
///
/// ```swift
/// var upload = ImageUploadFeature.State(maxCount: 1, mediaType: .profile)
/// ```
public struct MediaType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The name the server knows the type by.
  public var rawValue: String

  /// A media type the server knows as `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Wraps a literal, e.g. in tests.
  public init(stringLiteral value: String) { self.rawValue = value }

  /// Decodes from a plain JSON string.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  /// Encodes as a plain JSON string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// The raw text.
  public var description: String { rawValue }

  /// A user's profile picture.
  public static let profile = MediaType(rawValue: "profile")
  /// Images kept in the user's archive.
  public static let archive = MediaType(rawValue: "archive")
  /// 3D models (USDZ) made from a capture session.
  public static let model = MediaType(rawValue: "model")
}

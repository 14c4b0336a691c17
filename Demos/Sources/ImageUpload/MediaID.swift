/// The identifier the server gives an uploaded file; the parent stores it to refer to the media later.
///
/// ```swift
/// let ids: [MediaID] = try await client.upload(items, .archive) { _ in }
/// print(ids.first?.rawValue ?? "")   // "3f2b8c1e-…"
/// ```
public struct MediaID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The server's identifier text.
  public var rawValue: String

  /// Wraps the server's identifier text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Wraps the server's identifier text.
  public init(_ rawValue: String) { self.rawValue = rawValue }

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
}

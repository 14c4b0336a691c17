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

  public init(stringLiteral value: String) { self.rawValue = value }

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  public var description: String { rawValue }
}

/// One finding about a photo's originality: evidence it was edited, a warning, or evidence it is original.
///
/// ```swift
/// PhotoFlag(.edited, "Adobe Photoshop CC 2019 (Windows)").description   // "edited: Adobe Photoshop CC 2019 (Windows)"
/// ```
public struct PhotoFlag: Hashable, Sendable, Codable, CustomStringConvertible {
  /// What a flag says; flags are listed in this order.
  public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
    /// Editing software wrote the file.
    case edited
    /// Something a camera original would have is missing or inconsistent.
    case warning
    /// Evidence the photo came straight from a camera.
    case original
  }

  public var kind: Kind
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// `"<kind>: <message>"`.
  public var description: String { "\(kind.rawValue): \(message)" }
}

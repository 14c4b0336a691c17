import Foundation

/// The encodings an image generation service may return, recognised by their first bytes (magic numbers), never
/// by what the server claims.
///
/// ```swift
/// ImageFormat(detecting: pngData)   // .png
/// ImageFormat(detecting: Data("<html>".utf8))   // nil
/// ```
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
  case png
  case jpeg
  case webp

  /// The format whose signature `data` starts with, or nil when it is none of PNG, JPEG and WebP.
  public init?(detecting data: Data) {
    let bytes = [UInt8](data.prefix(12))
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      self = .png
    } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
      self = .webp
    } else {
      return nil
    }
  }

  /// The file name extension for this format, without the dot.
  public var fileExtension: String {
    switch self {
    case .png: "png"
    case .jpeg: "jpg"
    case .webp: "webp"
    }
  }

  /// The media type, e.g. `image/png`.
  public var mimeType: String { "image/\(rawValue)" }
}

import Foundation

/// One file to upload (the seed's "upload entity"): where its bytes are, their content type, and the file
/// extension the server-side name gets.
///
/// ```swift
/// let item = UploadItem(LoadedImage(fileURL: url, contentType: "image/png", byteCount: 1_024))
/// item.fileExtension   // "png"
/// ```
public struct UploadItem: Hashable, Sendable, Codable {
  /// Where the bytes are; uploads stream them from this file.
  public var fileURL: URL
  /// The MIME type sent (and signed) with the bytes.
  public var contentType: String
  /// The extension of the name the file gets on the server, without the dot.
  public var fileExtension: String
  /// The size of the file in bytes, for progress.
  public var byteCount: Int64

  /// An upload item; `fileExtension` defaults to the one that fits `contentType`.
  public init(fileURL: URL, contentType: String, fileExtension: String? = nil, byteCount: Int64) {
    self.fileURL = fileURL
    self.contentType = contentType
    self.fileExtension =
      fileExtension ?? Self.fileExtension(forContentType: contentType, fallback: fileURL.pathExtension)
    self.byteCount = byteCount
  }

  /// The upload entity for a loaded image.
  public init(_ image: LoadedImage) {
    self.init(fileURL: image.fileURL, contentType: image.contentType, byteCount: image.byteCount)
  }

  /// The usual extension for `contentType` (`image/jpeg` → `jpg`), else a safe form of `fallback`, else `bin`.
  public static func fileExtension(forContentType contentType: String, fallback: String = "") -> String {
    let known: [String: String] = [
      "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp", "image/heic": "heic",
      "image/heif": "heif", "image/avif": "avif", "image/tiff": "tiff", "image/bmp": "bmp",
      "model/vnd.usdz+zip": "usdz", "model/gltf-binary": "glb", "application/octet-stream": "bin",
    ]
    if let fileExtension = known[contentType.lowercased()] { return fileExtension }
    let safe = fallback.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
    return safe.isEmpty || safe.count > 16 ? "bin" : safe
  }
}

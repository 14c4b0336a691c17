import Foundation
import Images

/// Turns an image field of a response — base64 (optionally a `data:` URL, optionally with line breaks) or an
/// http(s) URL — into checked image bytes.
enum GeneratedImageDecoding {
  /// The bytes and format of the `index`-th image given as `field`.
  static func image(from field: String, index: Int, http: ImageServiceHTTP) async throws -> (Data, ImageFormat) {
    let trimmed = field.trimmingCharacters(in: .whitespacesAndNewlines)
    let lowercased = trimmed.prefix(8).lowercased()
    if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") {
      guard let url = URL(string: trimmed) else {
        throw ImageGenerationError.invalidImage("image \(index + 1) has an invalid URL")
      }
      return try await http.downloadImage(url)
    }
    return try decodeBase64(trimmed, index: index)
  }

  /// The bytes and format of base64 `text`.
  static func decodeBase64(_ text: String, index: Int) throws(ImageGenerationError) -> (Data, ImageFormat) {
    var payload = Substring(text)
    if payload.hasPrefix("data:"), let comma = payload.firstIndex(of: ",") {
      payload = payload[payload.index(after: comma)...]
    }
    // Python's base64.encodebytes (used in Karlo's own examples) breaks lines every 76 characters.
    let compact = String(payload.filter { !$0.isWhitespace })
    guard !compact.isEmpty, let data = Data(base64Encoded: compact) else {
      throw .invalidImage("image \(index + 1) is not valid base64")
    }
    guard let format = ImageFormat(detecting: data) else {
      throw .invalidImage("image \(index + 1) is not a PNG, JPEG or WebP")
    }
    return (data, format)
  }
}

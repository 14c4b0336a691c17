/// The media type of an image recognised by its first bytes (its signature, or magic number), never by its file
/// name: JPEG, PNG, GIF, WebP, TIFF, BMP, HEIC/HEIF and AVIF.
///
/// ```swift
/// ImageContentType.detecting([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])   // "image/png"
/// ImageContentType.detecting(Array("hello".utf8))                             // nil
/// ```
public enum ImageContentType {
  /// The media type of the image whose file starts with `header` (32 bytes are enough), or nil.
  public static func detecting(_ header: [UInt8]) -> String? {
    func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
      header.count >= offset + prefix.count && Array(header[offset..<offset + prefix.count]) == prefix
    }
    if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
    if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
    if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
    if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
    if starts(Array("BM".utf8)) && header.count >= 14 { return "image/bmp" }
    if starts(Array("ftyp".utf8), at: 4), header.count >= 12 {
      let brand = String(decoding: header[8..<12], as: UTF8.self)
      switch brand {
      case "heic", "heix", "heim", "heis", "hevc", "hevx": return "image/heic"
      case "mif1", "msf1": return "image/heif"
      case "avif", "avis": return "image/avif"
      default: return nil
      }
    }
    return nil
  }
}

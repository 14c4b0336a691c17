import Foundation

extension ImageLoaderClient {
  /// Reads the first bytes of each file to recognise its image format, and its size; the bytes stay on disk.
  ///
  /// ```swift
  /// let images = try await ImageLoaderClient.live.load([PickedImage(fileURL: url)])
  /// ```
  public static let live = ImageLoaderClient { images in
    var loaded: [LoadedImage] = []
    loaded.reserveCapacity(images.count)
    for image in images {
      try Task.checkCancellation()
      loaded.append(try loadImage(at: image.fileURL))
    }
    return loaded
  }

  /// The content type and size of the image file at `url`.
  static func loadImage(at url: URL) throws -> LoadedImage {
    let path = url.path
    guard url.isFileURL else {
      throw ImageUploadError.unreadableFile(path: url.absoluteString, reason: "not a file URL")
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw ImageUploadError.unreadableFile(path: path, reason: "the file does not exist")
    }
    guard !isDirectory.boolValue else {
      throw ImageUploadError.unreadableFile(path: path, reason: "it is a folder")
    }
    let handle: FileHandle
    do {
      handle = try FileHandle(forReadingFrom: url)
    } catch {
      throw ImageUploadError.unreadableFile(path: path, reason: "permission denied or I/O error")
    }
    defer { try? handle.close() }
    let header: Data
    let size: UInt64
    do {
      header = try handle.read(upToCount: 32) ?? Data()
      size = try handle.seekToEnd()
    } catch {
      throw ImageUploadError.unreadableFile(path: path, reason: "I/O error while reading")
    }
    guard size > 0 else { throw ImageUploadError.unreadableFile(path: path, reason: "the file is empty") }
    guard let contentType = imageContentType(sniffing: [UInt8](header)) else {
      throw ImageUploadError.unsupportedImage(path: path)
    }
    return LoadedImage(fileURL: url, contentType: contentType, byteCount: Int64(size))
  }

  /// The MIME type of an image recognised by its signature (magic bytes), or nil.
  static func imageContentType(sniffing header: [UInt8]) -> String? {
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

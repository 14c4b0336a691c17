import Foundation
import Images

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
    guard let contentType = ImageContentType.detecting([UInt8](header)) else {
      throw ImageUploadError.unsupportedImage(path: path)
    }
    return LoadedImage(fileURL: url, contentType: contentType, byteCount: Int64(size))
  }
}

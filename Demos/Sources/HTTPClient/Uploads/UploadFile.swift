import Foundation

/// Checks on a file about to be uploaded.
package enum UploadFile {
  /// The size of the regular, readable file at `url`; throws ``HTTPError/unreadableFile(path:reason:)``.
  package static func byteCount(of url: URL) throws -> Int64 {
    let path = url.path
    guard url.isFileURL else {
      throw HTTPError.unreadableFile(path: url.absoluteString, reason: "not a file URL")
    }
    let attributes: [FileAttributeKey: Any]
    do {
      attributes = try FileManager.default.attributesOfItem(atPath: path)
    } catch {
      throw HTTPError.unreadableFile(path: path, reason: "the file does not exist")
    }
    guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
      throw HTTPError.unreadableFile(path: path, reason: "not a regular file")
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw HTTPError.unreadableFile(path: path, reason: "permission denied")
    }
    if let size = attributes[.size] as? NSNumber { return size.int64Value }
    if let size = attributes[.size] as? Int64 { return size }
    if let size = attributes[.size] as? Int { return Int64(size) }
    throw HTTPError.unreadableFile(path: path, reason: "its size is unknown")
  }
}

import Foundation

extension GeneratedImageStorage {
  /// The file system: creates the file's folder (and its parents) when missing, then writes the file without ever
  /// replacing an existing one.
  ///
  /// ```swift
  /// try await GeneratedImageStorage.live.save(png, URL(fileURLWithPath: "generated/kite.png"))
  /// ```
  public static let live = GeneratedImageStorage { data, url in
    let folder = url.deletingLastPathComponent()
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw ImageSaveError.folderUnavailable(path: folder.path, reason: "a file with that name is in the way")
      }
    } else {
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      } catch {
        throw ImageSaveError.folderUnavailable(path: folder.path, reason: reason(error))
      }
    }
    guard !FileManager.default.fileExists(atPath: url.path) else {
      throw ImageSaveError.fileExists(path: url.path)
    }
    do {
      try data.write(to: url, options: .withoutOverwriting)
    } catch {
      if FileManager.default.fileExists(atPath: url.path), (error as NSError).code == NSFileWriteFileExistsError {
        throw ImageSaveError.fileExists(path: url.path)
      }
      throw ImageSaveError.writeFailed(path: url.path, reason: reason(error))
    }
  }

  private static func reason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
      let code = POSIXErrorCode(rawValue: Int32(underlying.code))
    {
      return String(cString: strerror(code.rawValue))
    }
    return nsError.localizedDescription
  }
}

import Foundation

/// Why a file operation failed, in words a user can read ("permission denied", "no space left on device"), never
/// "The operation could not be completed. (NSCocoaErrorDomain error 512.)". Callers add the path.
///
/// ```swift
/// do { try data.write(to: url) } catch {
///   print("Could not write \(url.path): \(FileErrorReason.words(for: error))")
/// }
/// FileErrorReason.words(forErrno: ENOSPC)   // "no space left on device"
/// ```
public enum FileErrorReason {
  /// The reason behind `error`: the operating system's own reason when there is one (POSIX code, directly or as
  /// the underlying error), else a sentence for the Foundation file error code.
  public static func words(for error: any Error) -> String {
    let nsError = error as NSError
    if nsError.domain == NSPOSIXErrorDomain { return words(forErrno: Int32(nsError.code)) }
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return words(forErrno: Int32(underlying.code))
    }
    if nsError.domain == NSCocoaErrorDomain {
      return cocoaWords[nsError.code] ?? "file error \(nsError.code)"
    }
    return String(describing: error)
  }

  /// The operating system's reason for `code`, starting lowercase: `"no such file or directory"`.
  public static func words(forErrno code: Int32) -> String {
    let text = String(cString: strerror(code))
    guard let first = text.first else { return "error \(code)" }
    // "No such file…" → "no such file…", but keep acronyms such as "I/O error" as they are.
    if text.count > 1, text.dropFirst().first?.isUppercase == true { return text }
    return first.lowercased() + text.dropFirst()
  }

  private static let cocoaWords: [Int: String] = [
    CocoaError.fileNoSuchFile.rawValue: "no such file or directory",
    CocoaError.fileReadNoSuchFile.rawValue: "no such file or directory",
    CocoaError.fileReadNoPermission.rawValue: "permission denied",
    CocoaError.fileWriteNoPermission.rawValue: "permission denied",
    CocoaError.fileWriteOutOfSpace.rawValue: "no space left on device",
    CocoaError.fileWriteVolumeReadOnly.rawValue: "the volume is read-only",
    CocoaError.fileWriteFileExists.rawValue: "a file with that name already exists",
    CocoaError.fileWriteInvalidFileName.rawValue: "the name is not a valid file name",
    CocoaError.fileReadTooLarge.rawValue: "the file is too large",
    CocoaError.fileReadCorruptFile.rawValue: "the file is damaged or in an unknown format",
    CocoaError.fileReadInapplicableStringEncoding.rawValue: "the file is not text in the expected encoding",
    CocoaError.fileLocking.rawValue: "the file is locked",
    CocoaError.fileReadUnknown.rawValue: "the file could not be read (no further reason given)",
    CocoaError.fileWriteUnknown.rawValue: "the file could not be written (no further reason given)",
  ]
}

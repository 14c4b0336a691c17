/// Why a resumable upload failed, in words a user can read. Servers are named by host and port only (an upload
/// resource's path is a capability).
///
/// ```swift
/// do {
///   _ = try await uploader.upload(file, resuming: resource)
/// } catch ResumableUploadError.uploadGone {
///   // expired, cancelled or the server restarted: start again (or set `restartWhenGone`)
/// }
/// ```
public enum ResumableUploadError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The server no longer has the upload (`404`/`410`): it expired, was cancelled, or the server restarted.
  case uploadGone(host: String)
  /// The file changed (size or modification date) since the upload started: resuming would mix two files.
  case fileChanged(path: String)
  /// The file is larger than the server's `Upload-Limit: max-size`; nothing was sent.
  case tooLarge(size: Int64, maxSize: Int64)
  /// The server claims more bytes than the file has: it cannot be this file's upload.
  case serverAheadOfFile(serverOffset: Int64, fileSize: Int64)
  /// The server says the upload is complete but its final response could not be had; whether the upload was
  /// processed is unknown.
  case completionUnconfirmed(host: String)
  /// A request failed: the network, an HTTP status, a refused redirect, or the retries ran out (with their count).
  case http(HTTPError)

  /// A sentence for the user.
  public var description: String {
    switch self {
    case let .uploadGone(host):
      return "\(host) no longer has this upload (it expired, was cancelled, or the server restarted); "
        + "start it again."
    case let .fileChanged(path):
      return "\(Self.fileName(path)) changed since its upload started; start the upload again."
    case let .tooLarge(size, maxSize):
      return "The file (\(size) bytes) is larger than the server accepts (\(maxSize) bytes)."
    case let .serverAheadOfFile(serverOffset, fileSize):
      return "The server holds \(serverOffset) bytes of a \(fileSize)-byte file: it is not this file's upload."
    case let .completionUnconfirmed(host):
      return "\(host) says the upload is complete but did not give its answer; check whether the file arrived."
    case let .http(error):
      return error.description
    }
  }

  private static func fileName(_ path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? ""
    return name.isEmpty ? "The file" : name
  }
}

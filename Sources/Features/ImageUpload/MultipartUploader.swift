import Foundation
import Unidirectional

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The live direct flow: one `multipart/form-data` POST (RFC 7578) of a file to the API server
/// (`POST {api}/upload-model`, field `file`), answered with `{success, message, fileId, size, sha256}`.
///
/// The body is written to a temporary file in 1 MiB chunks and uploaded from that file, so memory use does not grow
/// with the file's size; the temporary file is removed afterwards, on failure and cancellation too.
///
/// ```swift
/// let uploader = MultipartUploader(configuration: configuration)
/// let receipt = try await uploader.upload(
///   fileAt: modelURL, filename: "scan.usdz", contentType: "model/vnd.usdz+zip")
/// ```
public struct MultipartUploader: Sendable {
  /// The API server and limits this uploader uses.
  public let configuration: UploadServerConfiguration
  /// The endpoint's path under the API server.
  public let endpointPath: String
  /// Where request bodies are staged.
  public let temporaryDirectory: URL
  private let transport: UploadHTTPTransport

  /// An uploader posting to `endpointPath` of the API server in `configuration`, staging bodies in
  /// `temporaryDirectory`.
  public init(
    configuration: UploadServerConfiguration,
    endpointPath: String = "upload-model",
    temporaryDirectory: URL = FileManager.default.temporaryDirectory
  ) {
    self.configuration = configuration
    self.endpointPath = endpointPath
    self.temporaryDirectory = temporaryDirectory
    self.transport = UploadHTTPTransport(
      requestTimeout: configuration.requestTimeout, resourceTimeout: configuration.resourceTimeout,
      maxConnectionsPerHost: configuration.maxConcurrentUploads)
  }

  /// Uploads the file at `url` as `filename` with `contentType`.
  ///
  /// - Parameter progress: Bytes of the request body sent so far, and its size; never called after this returns.
  ///   Pass nil when nobody watches: large uploads are faster without progress on Linux.
  /// - Throws: ``ImageUploadError``: `httpStatus` with the server's message for a non-2xx answer, `rejected` for
  ///   `success: false`, `unreadableFile`, `cannotConnect`, ….
  public func upload(
    fileAt url: URL,
    filename: String,
    contentType: String,
    progress: (@Sendable (_ sentBytes: Int64, _ totalBytes: Int64) -> Void)? = nil
  ) async throws -> MultipartUploadReceipt {
    _ = try UploadFile.byteCount(of: url)
    guard UploadHTTPTransport.isSafeHeaderValue(contentType) else {
      throw ImageUploadError.invalidRequest("the content type \(contentType.debugDescription) is not valid")
    }
    let token = UUID().uuidString.lowercased()
    let form = MultipartFormBody(
      boundary: "unidirectional-\(token)", fieldName: "file", filename: filename, contentType: contentType)
    let bodyFile = temporaryDirectory.appendingPathComponent("multipart-\(token).body")
    defer { try? FileManager.default.removeItem(at: bodyFile) }
    let bodySize = try form.write(contentsOf: url, to: bodyFile)
    try Task.checkCancellation()

    var request = transport.request("POST", configuration.endpoint(endpointPath))
    for (name, value) in configuration.additionalHeaders { request.setValue(value, forHTTPHeaderField: name) }
    request.setValue(form.requestContentType, forHTTPHeaderField: "Content-Type")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue(configuration.token.authorizationHeader, forHTTPHeaderField: "Authorization")

    let isOpen = LockIsolated(true)
    defer { isOpen.withLock { $0 = false } }
    let onSent = progress.map { progress in
      { @Sendable (sent: Int64) in
        // Under the lock so that no report follows the return.
        isOpen.withLock { if $0 { progress(min(sent, bodySize), bodySize) } }
      }
    }
    let (data, response) = try await transport.upload(request, fromFile: bodyFile, progress: onSent)
    return try Self.receipt(from: data, status: response.statusCode)
  }

  private struct Answer: Decodable {
    let success: Bool?
    let message: String?
    let fileId: String?
    let size: Int64?
    let sha256: String?
  }

  private static func receipt(from data: Data, status: Int) throws -> MultipartUploadReceipt {
    guard (200..<300).contains(status) else {
      throw ImageUploadError.httpStatus(status, message: UploadHTTPTransport.serverMessage(in: data))
    }
    guard let answer = try? JSONDecoder().decode(Answer.self, from: data) else {
      throw ImageUploadError.invalidResponse("upload-model did not return JSON {success, message, fileId, size}")
    }
    let message = UploadHTTPTransport.sanitized(answer.message ?? "")
    guard answer.success == true else { throw ImageUploadError.rejected(message: message) }
    guard let fileID = answer.fileId, !fileID.isEmpty, let size = answer.size else {
      throw ImageUploadError.invalidResponse("upload-model reported success without fileId and size")
    }
    return MultipartUploadReceipt(fileID: fileID, size: size, sha256: answer.sha256, message: message)
  }
}

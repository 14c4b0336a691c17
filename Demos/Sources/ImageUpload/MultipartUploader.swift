import Foundation
import HTTPClient
import Unidirectional

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The live direct flow: one `multipart/form-data` POST (RFC 7578) of a file to the API server
/// (`POST {api}/upload-model`, field `file`), answered with `{success, message, fileId, size, sha256}`.
///
/// The body goes out as the part's header, the file read from disk as it is sent, and the closing boundary: memory
/// use does not grow with the file's size. (Through URLSession — `https` — it is staged to a temporary file first,
/// removed afterwards, on failure and cancellation too.) A 307/308 to the same origin is followed with the whole body
/// and the token; any other redirect is refused (`RedirectPolicy.sameOrigin`). The `POST` is not retried (it is
/// not idempotent). Success requires the server's `size` to equal the file's.
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
  /// Where request bodies are staged when they go through URLSession.
  public let temporaryDirectory: URL
  private let transport: HTTPTransport

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
    self.transport = HTTPTransport(configuration: configuration, stagingDirectory: temporaryDirectory)
  }

  /// Uploads the file at `url` as `filename` with `contentType`.
  ///
  /// - Parameters:
  ///   - url: The file to upload, read from disk as it is sent.
  ///   - filename: The name the form part gives the server.
  ///   - contentType: The form part's `Content-Type`.
  ///   - progress: Bytes of the request body sent so far, and its size, at most once per percent (back to 0
  ///     when a redirect re-sends the body); never called after this returns.
  /// - Throws: `ImageUploadError`: `rejected` for `success: false`; `http(_:)` with the HTTP layer's failure:
  ///   `httpStatus` with the server's message for a non-2xx answer, `unreadableFile`, `cannotConnect`, ….
  public func upload(
    fileAt url: URL,
    filename: String,
    contentType: String,
    progress: (@Sendable (_ sentBytes: Int64, _ totalBytes: Int64) -> Void)? = nil
  ) async throws -> MultipartUploadReceipt {
    try await ImageUploadError.wrappingHTTPErrors {
      let fileSize = try UploadFile.byteCount(of: url)
      guard HTTPTransport.isSafeHeaderValue(contentType) else {
        throw HTTPError.invalidRequest("the content type \(contentType.debugDescription) is not valid")
      }
      let form = MultipartFormBody(
        boundary: "unidirectional-\(UUID().uuidString.lowercased())", fieldName: "file", filename: filename,
        contentType: contentType)
      var request = HTTPRequest(method: "POST", url: configuration.endpoint(endpointPath))
      for (name, value) in configuration.additionalHeaders { request.setHeader(name, value) }
      request.setHeader("Content-Type", form.requestContentType)
      request.setHeader("Accept", "application/json")
      request.setHeader("Authorization", configuration.token.authorizationHeader)
      request.body = form.body(for: url, size: fileSize)
      let bodySize = request.body.length

      let isOpen = LockIsolated(true)
      defer { isOpen.withLock { $0 = false } }
      let onSent = progress.map { progress in
        { @Sendable (sent: Int64) in
          // Under the lock so that no report follows the return.
          isOpen.withLock { if $0 { progress(min(sent, bodySize), bodySize) } }
        }
      }
      let response = try await transport.send(request, redirects: .sameOrigin, progress: onSent.map { .perPercent($0) })
      let receipt = try receipt(from: response.body, status: response.status)
      guard receipt.size == fileSize else {
        throw HTTPError.incompleteUpload(
          host: HTTPTransport.hostDescription(response.url),
          detail: "it stored \(receipt.size) of \(fileSize) bytes")
      }
      return receipt
    }
  }

  private struct Answer: Decodable {
    let success: Bool?
    let message: String?
    let fileId: String?
    let size: Int64?
    let sha256: String?
  }

  private func receipt(from data: Data, status: Int) throws -> MultipartUploadReceipt {
    guard (200..<300).contains(status) else {
      throw HTTPError.httpStatus(status, message: transport.serverMessage(in: data))
    }
    guard let answer = try? JSONDecoder().decode(Answer.self, from: data) else {
      throw HTTPError.invalidResponse("upload-model did not return JSON {success, message, fileId, size}")
    }
    let message = transport.redactor.serverText(answer.message ?? "")
    guard answer.success == true else { throw ImageUploadError.rejected(message: message) }
    guard let fileID = answer.fileId, !fileID.isEmpty, let size = answer.size else {
      throw HTTPError.invalidResponse("upload-model reported success without fileId and size")
    }
    guard HTTPTransport.isSafeHeaderValue(fileID), fileID.count <= 200, transport.redactor.redact(fileID) == fileID
    else {
      throw HTTPError.invalidResponse("upload-model returned an unusable fileId")
    }
    return MultipartUploadReceipt(
      fileID: fileID, size: size, sha256: answer.sha256.map { transport.redactor.serverText($0) }, message: message)
  }
}

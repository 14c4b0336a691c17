import Foundation

/// One file `PUT` straight to a presigned storage URL (S3 and alike): exactly the signed `Content-Type`, no
/// `Authorization` (the signature is in the URL, and S3 rejects a second one), the file read from disk as it is sent,
/// redirects followed to any http(s) origin (``RedirectPolicy/anyOrigin``).
///
/// It succeeds only when the server that finally answered sent a 2xx after receiving every byte, and not the `ETag`
/// of an empty object; a refusal carries the HTTP status and the S3 `<Code>` and `<Message>` of its XML body
/// (``HTTPError/storageRejected(status:code:message:)``).
///
/// ```swift
/// let put = PresignedPUT(url: uploadURL, contentType: "image/png")
/// try await put.send(fileAt: file, size: size, through: transport) { sent in print(sent) }
/// ```
public struct PresignedPUT: Sendable {
  /// The presigned URL (its query holds the signature).
  public let url: URL
  /// The content type the URL was signed for.
  public let contentType: String

  /// A `PUT` to `url`, signed for `contentType`.
  public init(url: URL, contentType: String) {
    self.url = url
    self.contentType = contentType
  }

  /// The `ETag` S3 gives an empty object (the MD5 of no bytes).
  static let emptyObjectETag = "\"d41d8cd98f00b204e9800998ecf8427e\""

  /// Sends the `size`-byte file at `file`.
  ///
  /// - Parameters:
  ///   - file: The file to send.
  ///   - size: Its size in bytes, as signed.
  ///   - transport: The transport to send it through.
  ///   - progress: Body bytes sent, at most once per percent; back to 0 when a redirect re-sends the file.
  /// - Throws: ``HTTPError``: `storageRejected`, `incompleteUpload`, the transport's failures.
  public func send(
    fileAt file: URL, size: Int64, through transport: HTTPTransport, progress: (@Sendable (Int64) -> Void)? = nil
  ) async throws {
    var request = HTTPRequest(method: "PUT", url: url)
    request.setHeader("Content-Type", contentType)
    request.body = HTTPRequestBody([.file(file, offset: 0, length: size)])
    let response = try await transport.send(
      request, redirects: .anyOrigin, progress: progress.map { .perPercent($0) })
    guard (200..<300).contains(response.status) else {
      throw HTTPError.storageRejected(
        status: response.status,
        code: S3ErrorXML.field("Code", in: response.body, redactor: transport.redactor),
        message: S3ErrorXML.field("Message", in: response.body, redactor: transport.redactor))
    }
    let host = HTTPTransport.hostDescription(response.url)
    guard response.receivedWholeBody, response.bodyBytesSent.map({ $0 == size }) ?? true else {
      throw HTTPError.incompleteUpload(
        host: host, detail: "it answered HTTP \(response.status) after \(response.bodyBytesSent ?? 0) of \(size) bytes")
    }
    guard size == 0 || response.header("ETag") != Self.emptyObjectETag else {
      throw HTTPError.incompleteUpload(host: host, detail: "it stored an empty object")
    }
  }
}

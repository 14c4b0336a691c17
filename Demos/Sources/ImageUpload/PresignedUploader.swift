import Foundation
import HTTPClient
import Unidirectional

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The live presigned flow: one `POST {api}/presigned-urls` for all items, then a `PUT` of each file straight to
/// its storage URL, in parallel.
///
/// - Every item gets a fresh `<uuid>.<ext>` name from the UUID generator.
/// - A response with a different number of URLs fails with
///   `ImageUploadError.presignCountMismatch(requested:received:)`
///   before any byte is sent.
/// - PUTs stream from the files (`Content-Length`, never the whole file in memory), carry exactly the signed
///   `Content-Type` and no `Authorization`, at most ``UploadServerConfiguration/maxConcurrentUploads`` at a time.
/// - A PUT that fails with a 5xx (S3's `503 SlowDown`), a lost connection or a timeout is repeated under
///   ``UploadServerConfiguration/retryPolicy``, backing off on the injected `\.clock`; a 4xx is final.
/// - A 307/308 on the `POST` is followed only within the API server's origin (the token never goes elsewhere); on a
///   `PUT` to any http(s) origin, re-sending the whole file (`RedirectPolicy`). Progress restarts when a body is
///   re-sent.
/// - A PUT counts as done only when the server that finally answered got every byte: a 2xx after the whole body
///   was sent, and not the `ETag` of an empty object.
/// - The first failed PUT cancels the others; a storage refusal carries the HTTP status and the S3 `<Code>`.
/// - Failures are `ImageUploadError`s: the HTTP layer's as ``ImageUploadError/http(_:)``.
///
/// ```swift
/// let uploader = PresignedUploader(configuration: configuration)
/// let ids = try await uploader.upload(items, mediaType: .archive, uuid: .random) { progress in print(progress) }
/// ```
public struct PresignedUploader: Sendable {
  /// The API server and limits this uploader uses.
  public let configuration: UploadServerConfiguration
  private let transport: HTTPTransport

  /// An uploader talking to the API server in `configuration`, with its own ephemeral URLSession.
  public init(configuration: UploadServerConfiguration) {
    self.configuration = configuration
    self.transport = HTTPTransport(configuration: configuration)
  }

  /// Uploads `items` as `mediaType` media; returns their media ids in item order.
  ///
  /// - Parameters:
  ///   - items: The files to upload, each with its content type.
  ///   - mediaType: What the server files them as.
  ///   - uuid: Names the files on the server (`<uuid>.<ext>`).
  ///   - progress: Bytes sent over all PUTs, in whole-percent changes (lower when a PUT is re-sent after a retry or
  ///     a redirect); never called after this returns. Through URLSession (`https`) a consumer makes a large upload
  ///     slower (a delegate operation per ~48 KB); through the socket engine it costs nothing measurable.
  public func upload(
    _ items: [UploadItem],
    mediaType: MediaType,
    uuid: UUIDGenerator,
    progress: (@Sendable (UploadProgress) -> Void)? = nil
  ) async throws -> [MediaID] {
    try await ImageUploadError.wrappingHTTPErrors {
      guard !items.isEmpty else { return [] }
      let sizes = try items.map { try UploadFile.byteCount(of: $0.fileURL) }
      for item in items where !HTTPTransport.isSafeHeaderValue(item.contentType) {
        throw HTTPError.invalidRequest("the content type \(item.contentType.debugDescription) is not valid")
      }
      let targets = try await presign(items, mediaType: mediaType, uuid: uuid)

      @Dependency(\.clock) var clock
      let reporter = progress.map { UploadProgressReporter(sizes: sizes, handler: $0) }
      defer { reporter?.close() }
      let transport = transport
      let retryPolicy = configuration.retryPolicy
      _ = try await UploadConcurrency.map(count: items.count, limit: configuration.maxConcurrentUploads) { index in
        let onSent = reporter.map { reporter in { @Sendable (sent: Int64) in reporter.update(index, sentBytes: sent) } }
        try await retryPolicy.run(clock: clock) { _ in
          try await targets[index].put.send(
            fileAt: items[index].fileURL, size: sizes[index], through: transport, progress: onSent)
        }
        reporter?.complete(index)
      }
      return targets.map(\.mediaID)
    }
  }

  // MARK: Presign

  private struct PresignRequest: Encodable {
    struct Item: Encodable {
      let filename: String
      let contentType: String
      let mediaType: String
    }
    let items: [Item]
  }

  private struct PresignResponse: Decodable {
    struct Item: Decodable {
      let mediaID: String
      let uploadURL: String
      let contentType: String
    }
    let items: [Item]
  }

  /// Where one item goes: its media id and its presigned `PUT`.
  private struct Target: Sendable {
    let mediaID: MediaID
    let put: PresignedPUT
  }

  private func presign(_ items: [UploadItem], mediaType: MediaType, uuid: UUIDGenerator) async throws -> [Target] {
    let body = PresignRequest(
      items: items.map { item in
        PresignRequest.Item(
          filename: "\(uuid().uuidString.lowercased()).\(item.fileExtension)", contentType: item.contentType,
          mediaType: mediaType.rawValue)
      })
    var request = HTTPRequest(method: "POST", url: configuration.endpoint("presigned-urls"))
    for (name, value) in configuration.additionalHeaders { request.setHeader(name, value) }
    request.setHeader("Content-Type", "application/json")
    request.setHeader("Accept", "application/json")
    request.setHeader("Authorization", configuration.token.authorizationHeader)
    do {
      request.body = .bytes(try JSONEncoder().encode(body))
    } catch {
      throw HTTPError.invalidRequest("the presign request could not be encoded")
    }

    let response = try await transport.send(request, redirects: .sameOrigin)
    let data = response.body
    guard (200..<300).contains(response.status) else {
      throw HTTPError.httpStatus(response.status, message: transport.serverMessage(in: data))
    }
    let decoded: PresignResponse
    do {
      decoded = try JSONDecoder().decode(PresignResponse.self, from: data)
    } catch {
      throw HTTPError.invalidResponse(
        "presigned-urls did not return {\"items\": [{mediaID, uploadURL, contentType}]}")
    }
    guard decoded.items.count == items.count else {
      throw ImageUploadError.presignCountMismatch(requested: items.count, received: decoded.items.count)
    }
    return try decoded.items.enumerated().map { index, item in
      guard let url = URL(string: item.uploadURL), let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https", url.host != nil
      else {
        throw HTTPError.invalidResponse("items[\(index)].uploadURL is not an http(s) URL")
      }
      guard !item.mediaID.isEmpty else {
        throw HTTPError.invalidResponse("items[\(index)].mediaID is empty")
      }
      guard item.mediaID.count <= 200, transport.redactor.serverText(item.mediaID) == item.mediaID else {
        throw HTTPError.invalidResponse("items[\(index)].mediaID is not a plain identifier")
      }
      guard HTTPTransport.isSafeHeaderValue(item.contentType) else {
        throw HTTPError.invalidResponse("items[\(index)].contentType is not a valid header value")
      }
      return Target(mediaID: MediaID(item.mediaID), put: PresignedPUT(url: url, contentType: item.contentType))
    }
  }
}

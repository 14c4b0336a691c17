import Foundation
import Unidirectional

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The live presigned flow: one `POST {api}/presigned-urls` for all items, then a `PUT` of each file straight to
/// its storage URL, in parallel.
///
/// - Every item gets a fresh `<uuid>.<ext>` name from the UUID generator.
/// - A response with a different number of URLs fails with
///   ``ImageUploadError/presignCountMismatch(requested:received:)``
///   before any byte is sent.
/// - PUTs stream from the files (`Content-Length`, never the whole file in memory), carry exactly the signed
///   `Content-Type` and no `Authorization`, at most ``UploadServerConfiguration/maxConcurrentUploads`` at a time.
/// - The first failed PUT cancels the others; a storage refusal carries the HTTP status and the S3 `<Code>`.
///
/// ```swift
/// let uploader = PresignedUploader(configuration: configuration)
/// let ids = try await uploader.upload(items, mediaType: .archive, uuid: .random) { progress in print(progress) }
/// ```
public struct PresignedUploader: Sendable {
  /// The API server and limits this uploader uses.
  public let configuration: UploadServerConfiguration
  private let transport: UploadHTTPTransport

  /// An uploader talking to the API server in `configuration`, with its own ephemeral URLSession.
  public init(configuration: UploadServerConfiguration) {
    self.configuration = configuration
    self.transport = UploadHTTPTransport(
      requestTimeout: configuration.requestTimeout, resourceTimeout: configuration.resourceTimeout,
      maxConnectionsPerHost: configuration.maxConcurrentUploads)
  }

  /// Uploads `items` as `mediaType` media; returns their media ids in item order.
  ///
  /// - Parameters:
  ///   - uuid: Names the files on the server (`<uuid>.<ext>`).
  ///   - progress: Bytes sent over all PUTs, in whole-percent steps; never called after this returns. Pass nil
  ///     when nobody watches: large uploads are faster without progress on Linux.
  public func upload(
    _ items: [UploadItem],
    mediaType: MediaType,
    uuid: UUIDGenerator,
    progress: (@Sendable (UploadProgress) -> Void)? = nil
  ) async throws -> [MediaID] {
    guard !items.isEmpty else { return [] }
    let sizes = try items.map { try UploadFile.byteCount(of: $0.fileURL) }
    for item in items where !UploadHTTPTransport.isSafeHeaderValue(item.contentType) {
      throw ImageUploadError.invalidRequest("the content type \(item.contentType.debugDescription) is not valid")
    }
    let targets = try await presign(items, mediaType: mediaType, uuid: uuid)

    let reporter = progress.map { UploadProgressReporter(sizes: sizes, handler: $0) }
    defer { reporter?.close() }
    let transport = transport
    _ = try await UploadConcurrency.map(count: items.count, limit: configuration.maxConcurrentUploads) { index in
      let onSent = reporter.map { reporter in { @Sendable (sent: Int64) in reporter.update(index, sentBytes: sent) } }
      try await Self.put(items[index].fileURL, to: targets[index], transport: transport, progress: onSent)
      reporter?.complete(index)
    }
    return targets.map(\.mediaID)
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

  /// Where one item goes: its media id, presigned URL and signed content type.
  private struct Target: Sendable {
    let mediaID: MediaID
    let uploadURL: URL
    let contentType: String
  }

  private func presign(_ items: [UploadItem], mediaType: MediaType, uuid: UUIDGenerator) async throws -> [Target] {
    let body = PresignRequest(
      items: items.map { item in
        PresignRequest.Item(
          filename: "\(uuid().uuidString.lowercased()).\(item.fileExtension)", contentType: item.contentType,
          mediaType: mediaType.rawValue)
      })
    var request = transport.request("POST", configuration.endpoint("presigned-urls"))
    for (name, value) in configuration.additionalHeaders { request.setValue(value, forHTTPHeaderField: name) }
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue(configuration.token.authorizationHeader, forHTTPHeaderField: "Authorization")
    do {
      request.httpBody = try JSONEncoder().encode(body)
    } catch {
      throw ImageUploadError.invalidRequest("the presign request could not be encoded")
    }

    let (data, response) = try await transport.send(request)
    guard (200..<300).contains(response.statusCode) else {
      throw ImageUploadError.httpStatus(response.statusCode, message: UploadHTTPTransport.serverMessage(in: data))
    }
    let decoded: PresignResponse
    do {
      decoded = try JSONDecoder().decode(PresignResponse.self, from: data)
    } catch {
      throw ImageUploadError.invalidResponse(
        "presigned-urls did not return {\"items\": [{mediaID, uploadURL, contentType}]}")
    }
    guard decoded.items.count == items.count else {
      throw ImageUploadError.presignCountMismatch(requested: items.count, received: decoded.items.count)
    }
    return try decoded.items.enumerated().map { index, item in
      guard let url = URL(string: item.uploadURL), let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https", url.host != nil
      else {
        throw ImageUploadError.invalidResponse("items[\(index)].uploadURL is not an http(s) URL")
      }
      guard !item.mediaID.isEmpty else {
        throw ImageUploadError.invalidResponse("items[\(index)].mediaID is empty")
      }
      guard UploadHTTPTransport.isSafeHeaderValue(item.contentType) else {
        throw ImageUploadError.invalidResponse("items[\(index)].contentType is not a valid header value")
      }
      return Target(mediaID: MediaID(item.mediaID), uploadURL: url, contentType: item.contentType)
    }
  }

  // MARK: PUT

  private static func put(
    _ file: URL,
    to target: Target,
    transport: UploadHTTPTransport,
    progress: (@Sendable (Int64) -> Void)?
  ) async throws {
    var request = transport.request("PUT", target.uploadURL)
    // Exactly the signed type; no Authorization (the signature is in the URL, and S3 rejects a second one).
    request.setValue(target.contentType, forHTTPHeaderField: "Content-Type")
    let (data, response) = try await transport.upload(request, fromFile: file, progress: progress)
    guard (200..<300).contains(response.statusCode) else {
      throw ImageUploadError.storageRejected(
        status: response.statusCode, code: S3ErrorXML.field("Code", in: data),
        message: S3ErrorXML.field("Message", in: data))
    }
  }
}

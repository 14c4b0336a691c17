import Foundation
import HTTPClient
import Unidirectional

extension ImageUploadClient {
  /// The presigned flow (``PresignedUploader``) against the API server in `configuration`. File names come from
  /// the injected `\.uuid` generator at the time of each upload.
  ///
  /// ```swift
  /// $0.imageUploadClient = .presigned(UploadServerConfiguration(apiBaseURL: api, token: BearerToken(token)))
  /// ```
  public static func presigned(_ configuration: UploadServerConfiguration) -> ImageUploadClient {
    let uploader = PresignedUploader(configuration: configuration)
    return ImageUploadClient { items, mediaType, progress in
      @Dependency(\.uuid) var uuid
      return try await uploader.upload(items, mediaType: mediaType, uuid: uuid, progress: progress)
    }
  }

  /// The direct flow (``MultipartUploader``): each item is one multipart POST, at most
  /// ``UploadServerConfiguration/maxConcurrentUploads`` at a time; the server's file ids are the media ids.
  /// File names come from the injected `\.uuid` generator.
  ///
  /// ```swift
  /// $0.imageUploadClient = .multipart(configuration)
  /// ```
  public static func multipart(
    _ configuration: UploadServerConfiguration,
    endpointPath: String = "upload-model"
  ) -> ImageUploadClient {
    let uploader = MultipartUploader(configuration: configuration, endpointPath: endpointPath)
    return ImageUploadClient { items, _, progress in
      @Dependency(\.uuid) var uuid
      let sizes = try await ImageUploadError.wrappingHTTPErrors {
        try items.map { try UploadFile.byteCount(of: $0.fileURL) }
      }
      let names = items.map { "\(uuid().uuidString.lowercased()).\($0.fileExtension)" }
      let reporter = UploadProgressReporter(sizes: sizes, handler: progress)
      defer { reporter.close() }
      return try await UploadConcurrency.map(count: items.count, limit: configuration.maxConcurrentUploads) {
        index in
        let receipt = try await uploader.upload(
          fileAt: items[index].fileURL, filename: names[index], contentType: items[index].contentType
        ) { sent, _ in
          reporter.update(index, sentBytes: sent)
        }
        reporter.complete(index)
        return MediaID(receipt.fileID)
      }
    }
  }

  /// The presigned flow configured from `UPLOAD_API_URL` and `UPLOAD_API_TOKEN`
  /// (`UploadServerConfiguration.fromEnvironment(_:)`); without them, every upload fails with
  /// `ImageUploadError.http(.notConfigured(_:))`.
  public static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ImageUploadClient {
    do {
      return .presigned(try UploadServerConfiguration.fromEnvironment(environment))
    } catch {
      let failure = ImageUploadError(error)
      return ImageUploadClient { _, _, _ in throw failure }
    }
  }
}

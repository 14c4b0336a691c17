import Foundation
import HTTPClient
import Unidirectional

/// Uploads files and returns the server's media ids: the dependency ``ImageUploadFeature`` knows only this
/// interface ("give images, get media ids back").
///
/// The ids come back in the order of the items. Progress is reported through the callback while the upload runs,
/// never after it has returned or thrown. Errors are `ImageUploadError`s.
///
/// ```swift
/// let store = Store(initialState: ImageUploadFeature.State(mediaType: .archive)) {
///   ImageUploadFeature()
/// } withDependencies: {
///   $0.imageUploadClient = .presigned(UploadServerConfiguration(apiBaseURL: api, token: token))
/// }
///
/// // In a test:
/// $0.imageUploadClient.upload = { items, _, _ in items.indices.map { MediaID("m\($0)") } }
/// ```
public struct ImageUploadClient: Sendable {
  /// Receives progress while an upload runs.
  public typealias ProgressHandler = @Sendable (UploadProgress) -> Void

  /// Uploads `items` as media of `mediaType`, reporting progress; returns one media id per item, in item order.
  public var upload:
    @Sendable (_ items: [UploadItem], _ mediaType: MediaType, _ progress: @escaping ProgressHandler) async throws ->
      [MediaID]

  /// A client that uploads with `upload`.
  public init(
    upload:
      @escaping @Sendable (
        _ items: [UploadItem], _ mediaType: MediaType, _ progress: @escaping ProgressHandler
      ) async throws -> [MediaID]
  ) {
    self.upload = upload
  }

  /// Fails the test that calls it: tests must say what the upload does.
  public static let unimplemented = ImageUploadClient { _, _, _ in
    reportIssue("ImageUploadClient.upload is unimplemented: override \\.imageUploadClient in this test.")
    throw ImageUploadError.http(.notConfigured("ImageUploadClient.upload is unimplemented in tests"))
  }

  /// Pretends to upload: 10 progress steps of 100 ms each on the injected clock, then ids from the injected UUID
  /// generator (`preview-<uuid>`). For previews and demos without a server.
  public static let preview = ImageUploadClient { items, _, progress in
    @Dependency(\.clock) var clock
    @Dependency(\.uuid) var uuid
    let total = items.reduce(Int64(0)) { $0 + max(0, $1.byteCount) }
    for step in 1...10 {
      try await clock.sleep(for: .milliseconds(100))
      // Rounded up, so step n never reads as less than n × 10% once `percent` rounds down.
      progress(UploadProgress(completedBytes: (total * Int64(step) + 9) / 10, totalBytes: total))
    }
    return items.map { _ in MediaID("preview-\(uuid().uuidString.lowercased())") }
  }
}

private enum ImageUploadClientKey: DependencyKey {
  static let liveValue = ImageUploadClient.fromEnvironment()
  static let previewValue = ImageUploadClient.preview
  static let testValue = ImageUploadClient.unimplemented
}

extension DependencyValues {
  /// Uploads images for ``ImageUploadFeature``: live, the presigned flow configured from the environment
  /// (``ImageUploadClient/fromEnvironment(_:)``); in previews simulated; in tests unimplemented until overridden.
  public var imageUploadClient: ImageUploadClient {
    get { self[ImageUploadClientKey.self] }
    set { self[ImageUploadClientKey.self] = newValue }
  }
}

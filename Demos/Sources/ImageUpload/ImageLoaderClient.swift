import Foundation
import HTTPClient
import Images
import Unidirectional

/// Loads picked images: checks each file can be read and finds its content type (from its first bytes) and size.
///
/// ```swift
/// @Dependency(\.imageLoader) var imageLoader
/// let images = try await imageLoader.load(picked)   // same order as `picked`
///
/// // In a test:
/// $0.imageLoader.load = { picked in
///   picked.map { LoadedImage(fileURL: $0.fileURL, contentType: "image/png", byteCount: 3) }
/// }
/// ```
public struct ImageLoaderClient: Sendable {
  /// Loads `images`, in order; throws `ImageUploadError.unreadableFile(path:reason:)` or
  /// `ImageUploadError.unsupportedImage(path:)` for the first file that cannot be used.
  public var load: @Sendable (_ images: [PickedImage]) async throws -> [LoadedImage]

  /// A loader that calls `load`.
  public init(load: @escaping @Sendable (_ images: [PickedImage]) async throws -> [LoadedImage]) {
    self.load = load
  }

  /// Fails the test that calls it: tests must say what loading gives.
  public static let unimplemented = ImageLoaderClient { _ in
    reportIssue("ImageLoaderClient.load is unimplemented: override \\.imageLoader in this test.")
    throw ImageUploadError.http(.notConfigured("ImageLoaderClient.load is unimplemented in tests"))
  }
}

private enum ImageLoaderClientKey: DependencyKey {
  static let liveValue = ImageLoaderClient.live
  static let testValue = ImageLoaderClient.unimplemented
}

extension DependencyValues {
  /// Loads picked images for ``ImageUploadFeature``: reads real files live and in previews; unimplemented in tests.
  public var imageLoader: ImageLoaderClient {
    get { self[ImageLoaderClientKey.self] }
    set { self[ImageLoaderClientKey.self] = newValue }
  }
}

import Foundation
import Unidirectional

/// Writes generated images to files: the dependency behind the feature's *save*.
///
/// - `liveValue` / `previewValue`: ``live``, the file system (creates the folder, never overwrites a file).
/// - `testValue`: ``unimplemented``, which fails the test when called.
///
/// ```swift
/// let store = TestStore(initialState: ImageGenerationFeature.State(saveFolder: folder)) {
///   ImageGenerationFeature()
/// } withDependencies: {
///   $0.generatedImageStorage = GeneratedImageStorage { data, url in try await recorder.record(data, url) }
/// }
/// ```
public struct GeneratedImageStorage: Sendable {
  /// Writes `data` to a new file at `url`, creating its folder; throws ``ImageSaveError``.
  public var save: @Sendable (_ data: Data, _ url: URL) async throws -> Void

  /// Storage that saves with `save`.
  public init(save: @escaping @Sendable (_ data: Data, _ url: URL) async throws -> Void) {
    self.save = save
  }

  /// Reports "GeneratedImageStorage.save is unimplemented" as a test failure, then throws.
  public static let unimplemented = GeneratedImageStorage { _, url in
    reportIssue("GeneratedImageStorage.save is unimplemented: override \\.generatedImageStorage in this test.")
    throw ImageSaveError.writeFailed(path: url.path, reason: "unimplemented")
  }
}

private enum GeneratedImageStorageKey: DependencyKey {
  static let liveValue = GeneratedImageStorage.live
  static let testValue = GeneratedImageStorage.unimplemented
}

extension DependencyValues {
  /// Where generated images are saved: the file system, or an unimplemented storage in tests.
  public var generatedImageStorage: GeneratedImageStorage {
    get { self[GeneratedImageStorageKey.self] }
    set { self[GeneratedImageStorageKey.self] = newValue }
  }
}

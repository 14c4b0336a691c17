import Foundation
import HTTPClient
import Images
import PhotoAnalysis

/// ``ImageUploadFeature/Action`` as JSON, so a parent's action log (``ActionRecorder``) can record and replay it.
/// `imagesLoaded(Result)` is written as `imagesLoaded` (the images) or `imagesFailedToLoad` (the error), since
/// `Result` has no `Codable` form; every other case keeps its own name.
///
/// ```swift
/// let data = try JSONEncoder().encode(ImageUploadFeature.Action.uploadProgressed(progress))
/// let action = try JSONDecoder().decode(ImageUploadFeature.Action.self, from: data)
/// ```
extension ImageUploadFeature.Action: Codable {
  /// The action's cases with `Result` split in two: what is actually encoded.
  private enum Coded: Codable {
    case itemsPicked([PickedImage])
    case imagesLoaded([LoadedImage])
    case imagesFailedToLoad(ImageUploadError)
    case uploadRequested([UploadItem])
    case uploadProgressed(UploadProgress)
    case uploadCompleted([MediaID])
    case uploadFailed(ImageUploadError)
    case statusCleared
    case onDisappear
    case delegate(ImageUploadFeature.Action.Delegate)
    case analysis(PhotoAnalysisFeature.Action)
  }

  public init(from decoder: any Decoder) throws {
    switch try Coded(from: decoder) {
    case let .itemsPicked(images): self = .itemsPicked(images)
    case let .imagesLoaded(images): self = .imagesLoaded(.success(images))
    case let .imagesFailedToLoad(error): self = .imagesLoaded(.failure(error))
    case let .uploadRequested(items): self = .uploadRequested(items)
    case let .uploadProgressed(progress): self = .uploadProgressed(progress)
    case let .uploadCompleted(ids): self = .uploadCompleted(ids)
    case let .uploadFailed(error): self = .uploadFailed(error)
    case .statusCleared: self = .statusCleared
    case .onDisappear: self = .onDisappear
    case let .delegate(delegate): self = .delegate(delegate)
    case let .analysis(action): self = .analysis(action)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    let coded: Coded
    switch self {
    case let .itemsPicked(images): coded = .itemsPicked(images)
    case let .imagesLoaded(.success(images)): coded = .imagesLoaded(images)
    case let .imagesLoaded(.failure(error)): coded = .imagesFailedToLoad(error)
    case let .uploadRequested(items): coded = .uploadRequested(items)
    case let .uploadProgressed(progress): coded = .uploadProgressed(progress)
    case let .uploadCompleted(ids): coded = .uploadCompleted(ids)
    case let .uploadFailed(error): coded = .uploadFailed(error)
    case .statusCleared: coded = .statusCleared
    case .onDisappear: coded = .onDisappear
    case let .delegate(delegate): coded = .delegate(delegate)
    case let .analysis(action): coded = .analysis(action)
    }
    try coded.encode(to: encoder)
  }
}

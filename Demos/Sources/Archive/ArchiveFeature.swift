import ImageUpload
import Unidirectional

/// The user's image archive: embeds `ImageUploadFeature` and keeps the media ids of every finished upload.
///
/// The composition example: the child is scoped in with `Scope`, and the parent reacts only to the child's
/// delegate actions.
///
/// ```swift
/// let store = Store(initialState: ArchiveFeature.State()) { ArchiveFeature() }
/// store.send(.upload(.itemsPicked(images)))
/// // … later
/// store.mediaIDs   // the server's ids, in pick order, appended after each successful upload
/// ```
public struct ArchiveFeature: Reducer {
  /// The archive's state.
  ///
  /// ```swift
  /// let state = ArchiveFeature.State(mediaIDs: ["m1"], maxImagesPerUpload: 5)
  /// state.upload.mediaType   // .archive
  /// ```
  public struct State: Equatable, Sendable {
    /// The embedded uploader (archive media, at most 10 images per pick by default).
    public var upload: ImageUploadFeature.State
    /// Every media id uploaded so far, oldest first.
    public var mediaIDs: [MediaID]
    /// The reason of the last failed upload, until the next one succeeds.
    public var lastFailure: String?

    /// An archive holding `mediaIDs`, whose uploader accepts `maxImagesPerUpload` images at once.
    public init(mediaIDs: [MediaID] = [], maxImagesPerUpload: Int = 10, lastFailure: String? = nil) {
      self.upload = ImageUploadFeature.State(maxCount: maxImagesPerUpload, mediaType: .archive)
      self.mediaIDs = mediaIDs
      self.lastFailure = lastFailure
    }
  }

  /// The archive's actions: only the embedded uploader's, here.
  ///
  /// ```swift
  /// store.send(.upload(.itemsPicked(images)))
  /// ```
  public enum Action: Equatable, Sendable {
    /// An action of the embedded uploader.
    case upload(ImageUploadFeature.Action)

    /// Embeds and extracts ``upload(_:)`` actions.
    public static let uploadCase = CasePath(Action.upload) {
      if case let .upload(action) = $0 { action } else { nil }
    }
  }

  /// The feature.
  public init() {}

  /// The uploader, then the archive's reaction to its delegate actions.
  public var body: some Reducer<State, Action> {
    Scope(state: \.upload, action: Action.uploadCase) {
      ImageUploadFeature()
    }
    Reduce { state, action in
      switch action {
      case let .upload(.delegate(.uploadCompleted(ids))):
        state.mediaIDs.append(contentsOf: ids)
        state.lastFailure = nil
        return .none
      case let .upload(.delegate(.uploadFailed(error))):
        state.lastFailure = error.description
        return .none
      case .upload:
        return .none
      }
    }
  }
}

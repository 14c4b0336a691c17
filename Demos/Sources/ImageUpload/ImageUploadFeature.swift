import Foundation
import HTTPClient
import Images
import PhotoAnalysis
import Unidirectional

/// Picks images, uploads them, and tells the parent the media ids (the seed's image picker feature).
///
/// Flow: ``Action/itemsPicked(_:)`` → images loaded (``Action/imagesLoaded(_:)``) → converted to
/// ``UploadItem``s → ``Action/uploadRequested(_:)`` → ``Action/uploadCompleted(_:)`` or
/// ``Action/uploadFailed(_:)`` → ``Action/delegate(_:)`` to the parent. Success and failure go back to idle after
/// 3 seconds on the injected clock; a new pick or upload cancels that pending clear. ``Action/onDisappear``
/// cancels whatever is in flight.
///
/// With `State(…, analysis: PhotoAnalysisFeature.State())`, every accepted pick is also handed to an embedded
/// `PhotoAnalysisFeature` that runs next to the upload: each picked image shows its originality score as soon as
/// its metadata is read (a few kilobytes, usually before its bytes are sent), the upload never waits for it, and
/// leaving cancels both.
///
/// ```swift
/// struct ArchiveFeature: Reducer {
///   var body: some Reducer<State, Action> {
///     Scope(state: \.upload, action: Action.uploadCase) { ImageUploadFeature() }
///     Reduce { state, action in
///       if case let .upload(.delegate(.uploadCompleted(ids))) = action { state.mediaIDs += ids }
///       return .none
///     }
///   }
/// }
/// ```
public struct ImageUploadFeature: Reducer {
  /// What the user sees of an upload.
  ///
  /// ```swift
  /// ImageUploadFeature.Status.success(ids).text   // "✓ Upload complete!"
  /// ```
  public enum Status: Hashable, Sendable, Codable {
    /// Nothing happening.
    case idle
    /// Loading and uploading, with the bytes sent so far.
    case uploading(UploadProgress)
    /// Uploaded; the server's media ids in pick order.
    case success([MediaID])
    /// Refused or failed, with the reason shown to the user.
    case failure(String)

    /// The text shown for this status: `""`, `"Uploading to server... 42%"`, `"✓ Upload complete!"` or
    /// `"✗ Upload failed: <reason>"`.
    public var text: String {
      switch self {
      case .idle: return ""
      case let .uploading(progress):
        return progress.totalBytes > 0 ? "Uploading to server... \(progress.percent)%" : "Uploading to server..."
      case .success: return "✓ Upload complete!"
      case let .failure(reason): return "✗ Upload failed: \(reason)"
      }
    }
  }

  /// The feature's state. The parent sets the maximum number of images and the media type.
  ///
  /// ```swift
  /// let state = ImageUploadFeature.State(maxCount: 1, mediaType: .profile)
  /// state.isLoading    // false
  /// state.statusText   // ""
  /// ```
  public struct State: Equatable, Sendable, Codable {
    /// The most images one pick may hold (10 by default).
    public var maxCount: Int
    /// What the images are for; decides where the server files them.
    public var mediaType: MediaType
    /// The images of the latest accepted pick, in pick order.
    public var pickedImages: [PickedImage]
    /// What the user sees.
    public var status: Status
    /// Each picked image's originality report, when the parent asked for them (nil: no analysis).
    public var analysis: PhotoAnalysisFeature.State?

    /// A feature for `mediaType` that accepts at most `maxCount` images per pick, analysing each picked photo when
    /// `analysis` is given.
    public init(
      maxCount: Int = 10, mediaType: MediaType, pickedImages: [PickedImage] = [], status: Status = .idle,
      analysis: PhotoAnalysisFeature.State? = nil
    ) {
      self.maxCount = maxCount
      self.mediaType = mediaType
      self.pickedImages = pickedImages
      self.status = status
      self.analysis = analysis
    }

    /// True exactly while images are being loaded or uploaded.
    public var isLoading: Bool {
      if case .uploading = status { return true }
      return false
    }

    /// The status text shown to the user (see ``Status/text``).
    public var statusText: String { status.text }
  }

  /// Everything that can happen to the feature.
  ///
  /// ```swift
  /// store.send(.itemsPicked([PickedImage(fileURL: photoURL)]))
  /// store.send(.onDisappear)   // cancels the upload in flight
  /// ```
  public enum Action: Equatable, Sendable {
    /// The user picked images (an empty pick, a dismissed picker, does nothing).
    case itemsPicked([PickedImage])
    /// The picked images were loaded, or one of them could not be.
    case imagesLoaded(Result<[LoadedImage], ImageUploadError>)
    /// Upload these items (sent after loading; a parent may send it directly).
    case uploadRequested([UploadItem])
    /// The upload has sent more bytes.
    case uploadProgressed(UploadProgress)
    /// The server stored every item; its media ids in item order.
    case uploadCompleted([MediaID])
    /// Loading or uploading failed.
    case uploadFailed(ImageUploadError)
    /// The 3-second display of success or failure is over.
    case statusCleared
    /// The user left the screen: cancel whatever is in flight.
    case onDisappear
    /// Messages for the parent.
    case delegate(Delegate)
    /// The embedded photo analysis (only while ``State/analysis`` is set).
    case analysis(PhotoAnalysisFeature.Action)

    /// Embeds `PhotoAnalysisFeature`'s actions.
    public static let analysisCase = CasePath(Action.analysis) {
      if case let .analysis(action) = $0 { action } else { nil }
    }

    /// What the parent is told.
    ///
    /// ```swift
    /// case let .upload(.delegate(.uploadCompleted(ids))):
    ///   state.mediaIDs += ids
    /// ```
    public enum Delegate: Equatable, Sendable, Codable {
      /// Every image was uploaded; the media ids in pick order.
      case uploadCompleted([MediaID])
      /// The upload failed.
      case uploadFailed(ImageUploadError)
    }
  }

  /// The ids of the feature's long-running effects; a parent may cancel them too.
  ///
  /// ```swift
  /// return .cancel(id: ImageUploadFeature.CancelID.upload)
  /// ```
  public enum CancelID: Hashable, Sendable {
    /// Loading and uploading.
    case upload
    /// The timer that clears success or failure.
    case statusClear
  }

  /// How long success and failure stay on screen.
  public static let statusDisplayDuration: Duration = .seconds(3)

  @Dependency(\.clock) var clock
  @Dependency(\.imageLoader) var imageLoader
  @Dependency(\.imageUploadClient) var imageUploadClient

  /// The feature.
  public init() {}

  /// Picking, loading, uploading, the status display and its clearing.
  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .itemsPicked(images):
        guard !images.isEmpty else { return .none }
        guard images.count <= state.maxCount else {
          return fail(&state, .tooManyItems(count: images.count, maximum: state.maxCount), notifyParent: false)
            .merge(with: .cancel(id: CancelID.upload))
        }
        state.pickedImages = images
        state.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 0))
        let imageLoader = imageLoader
        return .merge(
          .cancel(id: CancelID.statusClear),
          state.analysis == nil ? .none : .send(.analysis(.photosPicked(images))),
          .run { send in
            send(.imagesLoaded(.success(try await imageLoader.load(images))))
          } catch: { error, send in
            send(.imagesLoaded(.failure(ImageUploadError(error))))
          }
          .cancellable(id: CancelID.upload, cancelInFlight: true)
        )

      case let .imagesLoaded(.success(images)):
        guard state.isLoading else { return .none }
        guard !images.isEmpty else {
          // Nothing loadable was picked: nothing to upload, nothing failed.
          state.status = .idle
          return .none
        }
        return .send(.uploadRequested(images.map(UploadItem.init)))

      case let .imagesLoaded(.failure(error)):
        guard state.isLoading else { return .none }
        return fail(&state, error, notifyParent: true)

      case let .uploadRequested(items):
        guard !items.isEmpty else { return .none }
        guard items.count <= state.maxCount else {
          return fail(&state, .tooManyItems(count: items.count, maximum: state.maxCount), notifyParent: false)
            .merge(with: .cancel(id: CancelID.upload))
        }
        let total = items.reduce(Int64(0)) { $0 + max(0, $1.byteCount) }
        state.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: total))
        let mediaType = state.mediaType
        let imageUploadClient = imageUploadClient
        return .merge(
          .cancel(id: CancelID.statusClear),
          .run { send in
            let ids = try await imageUploadClient.upload(items, mediaType) { progress in
              send(.uploadProgressed(progress))
            }
            send(.uploadCompleted(ids))
          } catch: { error, send in
            send(.uploadFailed(ImageUploadError(error)))
          }
          .cancellable(id: CancelID.upload, cancelInFlight: true)
        )

      case let .uploadProgressed(progress):
        guard state.isLoading else { return .none }
        state.status = .uploading(progress)
        return .none

      case let .uploadCompleted(ids):
        guard state.isLoading else { return .none }
        state.status = .success(ids)
        return .merge(.send(.delegate(.uploadCompleted(ids))), clearStatusLater())

      case let .uploadFailed(error):
        guard state.isLoading else { return .none }
        return fail(&state, error, notifyParent: true)

      case .statusCleared:
        state.status = .idle
        return .none

      case .onDisappear:
        if state.isLoading { state.status = .idle }
        return .merge(
          .cancel(id: CancelID.upload), .cancel(id: CancelID.statusClear),
          state.analysis == nil ? .none : .send(.analysis(.onDisappear)))

      case .delegate, .analysis:
        return .none
      }
    }
    .ifLet(\.analysis, action: Action.analysisCase) { PhotoAnalysisFeature() }
  }

  /// Shows `error`, tells the parent when an upload was under way, and clears the message later.
  private func fail(_ state: inout State, _ error: ImageUploadError, notifyParent: Bool) -> Effect<Action> {
    state.status = .failure(error.description)
    return .merge(notifyParent ? .send(.delegate(.uploadFailed(error))) : .none, clearStatusLater())
  }

  /// Clears success or failure after ``statusDisplayDuration``, replacing a clear already pending.
  private func clearStatusLater() -> Effect<Action> {
    let clock = clock
    return .run { send in
      try await clock.sleep(for: Self.statusDisplayDuration)
      send(.statusCleared)
    }
    .cancellable(id: CancelID.statusClear, cancelInFlight: true)
  }
}

import CaptureSession
import Foundation
import ImageUpload
import ModelReconstruction
import Unidirectional

/// The whole scan: capture a session, make a 3D model of its shots, preview the model, upload it.
///
/// Flow: the capture (`CaptureSessionFeature`, an optional child) completes → the user taps *Create 3D model*
/// → the capture is released (its state dropped, so nothing of the session can be shown or reached any more) and
/// the `ModelReconstructionClient` builds a model file with progress → the preview shows the file → the user
/// taps *Upload* → the embedded `ImageUploadFeature` uploads it, with its usual status feedback (uploading with
/// progress, *✓ Upload complete!* or *✗ Upload failed*, cleared after 3 seconds).
///
/// What the user sees, ``State/screen``, is computed from the state.
///
/// ```swift
/// let store = Store(initialState: ScanFeature.State(workingDirectory: folder)) { ScanFeature() }
/// store.send(.capture(.start))
/// // once store.screen is .capture(.completed(…)):
/// store.send(.capture(.createModelTapped))
/// // once store.screen is .preview(…):
/// store.send(.uploadTapped)
/// ```
public struct ScanFeature: Reducer {
  /// Where the model is.
  ///
  /// ```swift
  /// if case let .ready(model) = store.model { print(model.fileName) }
  /// ```
  public enum ModelStatus: Hashable, Sendable, Codable {
    /// No model asked for yet.
    case notStarted
    /// Being built.
    case reconstructing(ModelReconstructionProgress)
    /// Built: the file to preview and upload.
    case ready(ReconstructedModel)
    /// Building failed (or was cancelled), with the reason; it can be retried.
    case failed(String)
  }

  /// What the user sees, derived from the state.
  ///
  /// ```swift
  /// if case let .preview(model, upload, _) = store.screen {
  ///   print(model.fileName, upload.text)   // "model-….usdz", "Uploading to server... 42%"
  /// }
  /// ```
  public enum Screen: Hashable, Sendable {
    /// The capture session's own screen (live capture, completed, failed or closed).
    case capture(CaptureSessionFeature.Screen)
    /// The model is being built.
    case reconstructing(ModelReconstructionProgress)
    /// Building the model failed; *Try again* is offered.
    case reconstructionFailed(reason: String)
    /// The model's file, the upload's status and, once uploaded, the server's id for it.
    case preview(model: ReconstructedModel, upload: ImageUploadFeature.Status, uploadedID: MediaID?)
    /// Nothing to show.
    case closed
  }

  /// The feature's state.
  ///
  /// ```swift
  /// let state = ScanFeature.State(workingDirectory: URL(fileURLWithPath: "/tmp/scan-1", isDirectory: true))
  /// state.screen   // .capture(.capture(phase: .initializing, shotCount: 0, warning: nil))
  /// ```
  public struct State: Equatable, Sendable, Codable {
    /// Where shots (`images/`) and models go.
    public var workingDirectory: URL
    /// The capture session, until the user asks for a model.
    public var capture: CaptureSessionFeature.State?
    /// The shots of the completed capture.
    public var shots: [CaptureShot]
    /// The model.
    public var model: ModelStatus
    /// The model upload (one file of media type `model`).
    public var upload: ImageUploadFeature.State
    /// The server's id for the uploaded model, once an upload succeeded.
    public var uploadedModelID: MediaID?

    /// A scan that has not started capturing, working in `workingDirectory`; the session writes its shots into
    /// `workingDirectory/images`.
    public init(workingDirectory: URL) {
      self.init(
        workingDirectory: workingDirectory,
        capture: CaptureSessionFeature.State(
          configuration: CaptureSessionConfiguration(
            imagesDirectory: workingDirectory.appendingPathComponent("images", isDirectory: true))))
    }

    /// A scan in any stage: `capture` is nil once the user has asked for a model.
    public init(
      workingDirectory: URL,
      capture: CaptureSessionFeature.State?,
      shots: [CaptureShot] = [],
      model: ModelStatus = .notStarted,
      upload: ImageUploadFeature.State = ImageUploadFeature.State(maxCount: 1, mediaType: .model),
      uploadedModelID: MediaID? = nil
    ) {
      self.workingDirectory = workingDirectory
      self.capture = capture
      self.shots = shots
      self.model = model
      self.upload = upload
      self.uploadedModelID = uploadedModelID
    }

    /// What the user sees: computed from the state every time it is read.
    public var screen: Screen {
      if let capture { return .capture(capture.screen) }
      switch model {
      case .notStarted: return .closed
      case let .reconstructing(progress): return .reconstructing(progress)
      case let .failed(reason): return .reconstructionFailed(reason: reason)
      case let .ready(model): return .preview(model: model, upload: upload.status, uploadedID: uploadedModelID)
      }
    }
  }

  /// Everything that can happen to the feature.
  ///
  /// ```swift
  /// store.send(.capture(.start))
  /// store.send(.capture(.createModelTapped))
  /// store.send(.uploadTapped)
  /// store.send(.onDisappear)   // cancels whatever is in flight
  /// ```
  public enum Action: Equatable, Sendable, Codable {
    /// An action of the capture session.
    case capture(CaptureSessionFeature.Action)
    /// The model is further along.
    case reconstructionProgressed(ModelReconstructionProgress)
    /// The model is built.
    case reconstructionSucceeded(ReconstructedModel)
    /// Building the model failed.
    case reconstructionFailed(ModelReconstructionError)
    /// The user tapped *Try again* after a failed reconstruction.
    case retryReconstructionTapped
    /// The user cancelled the reconstruction.
    case cancelReconstructionTapped
    /// The user tapped *Upload* on the preview.
    case uploadTapped
    /// An action of the model upload.
    case upload(ImageUploadFeature.Action)
    /// The user left the scan: everything in flight is cancelled.
    case onDisappear

    /// Embeds and extracts ``capture(_:)`` actions.
    public static let captureCase = CasePath(Action.capture) {
      if case let .capture(action) = $0 { action } else { nil }
    }

    /// Embeds and extracts ``upload(_:)`` actions.
    public static let uploadCase = CasePath(Action.upload) {
      if case let .upload(action) = $0 { action } else { nil }
    }
  }

  /// The ids of the feature's own long-running effects.
  ///
  /// ```swift
  /// return .cancel(id: ScanFeature.CancelID.reconstruction)
  /// ```
  public enum CancelID: Hashable, Sendable {
    /// Building the model.
    case reconstruction
  }

  @Dependency(\.modelReconstruction) var modelReconstruction

  /// The feature.
  public init() {}

  public var body: some Reducer<State, Action> {
    Scope(state: \.upload, action: Action.uploadCase) {
      ImageUploadFeature()
    }
    Reduce { state, action in
      switch action {
      case let .capture(.delegate(.createModel(shots))):
        state.shots = shots
        state.capture = nil  // releases the session: its subscription is cancelled, its screen is gone
        return reconstruct(&state)

      case .capture:
        return .none

      case let .reconstructionProgressed(progress):
        guard case .reconstructing = state.model else { return .none }
        state.model = .reconstructing(progress)
        return .none

      case let .reconstructionSucceeded(model):
        guard case .reconstructing = state.model else { return .none }
        state.model = .ready(model)
        return .none

      case let .reconstructionFailed(error):
        guard case .reconstructing = state.model else { return .none }
        state.model = .failed(error.description)
        return .none

      case .retryReconstructionTapped:
        guard case .failed = state.model, state.capture == nil else { return .none }
        return reconstruct(&state)

      case .cancelReconstructionTapped:
        guard case .reconstructing = state.model else { return .none }
        state.model = .failed(ModelReconstructionError.cancelled.description)
        return .cancel(id: CancelID.reconstruction)

      case .uploadTapped:
        guard case let .ready(model) = state.model, !state.upload.isLoading else { return .none }
        let item = UploadItem(
          fileURL: model.fileURL, contentType: model.contentType, fileExtension: "usdz", byteCount: model.byteCount)
        return .send(.upload(.uploadRequested([item])))

      case let .upload(.delegate(.uploadCompleted(ids))):
        state.uploadedModelID = ids.first
        return .none

      case .upload:
        return .none

      case .onDisappear:
        if case .reconstructing = state.model {
          state.model = .failed(ModelReconstructionError.cancelled.description)
        }
        let releaseCapture: Effect<Action> = state.capture == nil ? .none : .send(.capture(.released))
        return .merge(releaseCapture, .cancel(id: CancelID.reconstruction), .send(.upload(.onDisappear)))
      }
    }
    .ifLet(\.capture, action: Action.captureCase) {
      CaptureSessionFeature()
    }
  }

  /// Starts building a model of the state's shots into a new file in the working directory.
  ///
  /// The file is named in the effect (`model-<uuid>.usdz`, from the injected generator), so reducing stays free of
  /// generated values and a replayed action log rebuilds the same states.
  private func reconstruct(_ state: inout State) -> Effect<Action> {
    state.model = .reconstructing(.starting)
    let (shots, folder, modelReconstruction) = (state.shots, state.workingDirectory, modelReconstruction)
    return .run { send in
      @Dependency(\.uuid) var uuid
      let request = ModelReconstructionRequest(
        shots: shots, outputURL: folder.appendingPathComponent("model-\(uuid().uuidString.lowercased()).usdz"))
      let model = try await modelReconstruction.reconstruct(request) { progress in
        send(.reconstructionProgressed(progress))
      }
      send(.reconstructionSucceeded(model))
    } catch: { error, send in
      send(.reconstructionFailed(ModelReconstructionError(error)))
    }
    .cancellable(id: CancelID.reconstruction, cancelInFlight: true)
  }
}

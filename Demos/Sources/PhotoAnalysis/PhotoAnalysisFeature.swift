import Foundation
import Images
import Unidirectional

/// Analyses picked photos one after another and shows a report — score and flags — or an error for each.
///
/// Flow: ``Action/photosPicked(_:)`` → every photo `.analysing` → ``Action/photoAnalysed(id:_:)`` per photo, in
/// pick order. A new pick replaces the photos and cancels the analysis in flight; ``Action/onDisappear`` cancels
/// it and marks the photos not yet analysed `.cancelled`. A photo that cannot be analysed shows its error; the
/// others go on.
///
/// ```swift
/// let store = Store(initialState: PhotoAnalysisFeature.State()) { PhotoAnalysisFeature() }
/// store.send(.photosPicked([PickedImage(fileURL: url)]))
/// // … later
/// store.photos[0].status   // .analysed(report): report.score, report.flags
/// ```
public struct PhotoAnalysisFeature: Reducer {
  /// One picked photo and where its analysis is.
  public struct Photo: Hashable, Sendable, Codable, Identifiable {
    /// Its position in the pick.
    public var id: Int
    public var image: PickedImage
    public var status: Status

    public init(id: Int, image: PickedImage, status: Status = .analysing) {
      self.id = id
      self.image = image
      self.status = status
    }
  }

  /// Where a photo's analysis is.
  public enum Status: Hashable, Sendable, Codable {
    case analysing
    case analysed(PhotoAnalysisReport)
    case failed(PhotoAnalysisError)
    /// The user left before this photo was analysed.
    case cancelled

    /// What the user sees: `"Analysing…"`, `"Originality 90/100"`, `"✗ <error>"` or `"Cancelled"`.
    public var text: String {
      switch self {
      case .analysing: "Analysing…"
      case let .analysed(report): "Originality \(report.score)/100"
      case let .failed(error): "✗ \(error)"
      case .cancelled: "Cancelled"
      }
    }
  }

  /// The photos of the latest pick.
  ///
  /// ```swift
  /// PhotoAnalysisFeature.State().isAnalysing   // false
  /// ```
  public struct State: Equatable, Sendable, Codable {
    public var photos: IdentifiedArrayOf<Photo>

    public init(photos: IdentifiedArrayOf<Photo> = []) { self.photos = photos }

    /// True while any photo is still being analysed.
    public var isAnalysing: Bool { photos.contains { $0.status == .analysing } }
  }

  /// Everything that can happen to the feature.
  public enum Action: Equatable, Sendable {
    /// The user picked photos (an empty pick does nothing).
    case photosPicked([PickedImage])
    /// The photo with `id` was analysed, or could not be.
    case photoAnalysed(id: Int, Result<PhotoAnalysisReport, PhotoAnalysisError>)
    /// The user left: cancel the analysis.
    case onDisappear
  }

  /// The id of the analysis effect; a parent may cancel it too.
  public enum CancelID: Hashable, Sendable { case analysis }

  @Dependency(\.photoMetadata) var photoMetadata

  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .photosPicked(images):
        guard !images.isEmpty else { return .none }
        let photos = images.enumerated().map { Photo(id: $0.offset, image: $0.element) }
        state.photos = IdentifiedArrayOf(photos)
        let photoMetadata = photoMetadata
        return .run { send in
          for photo in photos {
            let result: Result<PhotoAnalysisReport, PhotoAnalysisError>
            do {
              result = .success(try await photoMetadata.analyze(photo.image.fileURL))
            } catch let error as PhotoAnalysisError {
              result = .failure(error)
            } catch is CancellationError {
              return
            } catch {
              result = .failure(.metadataExtractionFailed(String(describing: error)))
            }
            send(.photoAnalysed(id: photo.id, result))
          }
        }
        .cancellable(id: CancelID.analysis, cancelInFlight: true)

      case let .photoAnalysed(id, result):
        guard state.photos[id: id]?.status == .analysing else { return .none }
        switch result {
        case let .success(report): state.photos[id: id]?.status = .analysed(report)
        case let .failure(error): state.photos[id: id]?.status = .failed(error)
        }
        return .none

      case .onDisappear:
        for photo in state.photos where photo.status == .analysing {
          state.photos[id: photo.id]?.status = .cancelled
        }
        return .cancel(id: CancelID.analysis)
      }
    }
  }
}

import ImageUpload
import Unidirectional

extension GalleryFeature {
  /// What the gallery presents over its screens: the "delete?" dialog or the upload sheet — one at a time.
  ///
  /// ```swift
  /// state.destination = .upload(ImageUploadFeature.State(mediaType: .archive))
  /// ```
  public struct Destination: Reducer {
    /// The presented dialog or sheet. Its `id` names the case (and, for the dialog, the item), so replacing one by
    /// another is a new presentation.
    public enum State: Equatable, Sendable, Identifiable {
      /// "Delete …?", with the item's id in its destructive button.
      case confirmDelete(ConfirmationDialogState<ConfirmDelete>)
      /// The upload sheet.
      case upload(ImageUploadFeature.State)

      /// Embeds and extracts ``upload(_:)``.
      public static let uploadCase = CasePath(State.upload) { if case let .upload(state) = $0 { state } else { nil } }

      /// Which presentation this is.
      public enum ID: Hashable, Sendable {
        /// A "delete?" dialog (each one made is new).
        case confirmDelete(PresentationCounter.ID)
        /// The upload sheet.
        case upload
      }

      public var id: ID {
        switch self {
        case let .confirmDelete(dialog): .confirmDelete(dialog.id)
        case .upload: .upload
        }
      }

      /// The upload sheet's state, when it is the one presented (for `store.scope(state: \.destination?.upload, …)`).
      public var upload: ImageUploadFeature.State? { Self.uploadCase.extract(self) }
    }

    /// An action of the presented dialog or sheet.
    public enum Action: Equatable, Sendable {
      /// A button of the "delete?" dialog.
      case confirmDelete(ConfirmDelete)
      /// An action of the upload sheet.
      case upload(ImageUploadFeature.Action)

      /// Embeds and extracts ``upload(_:)``.
      public static let uploadCase = CasePath(Action.upload) {
        if case let .upload(action) = $0 { action } else { nil }
      }
    }

    /// The actions of the "delete?" dialog's buttons (Cancel sends none: it only dismisses).
    public enum ConfirmDelete: Equatable, Sendable {
      /// Delete the item with this id.
      case confirm(MediaID)
    }

    /// The destinations.
    public init() {}

    public var body: some Reducer<State, Action> {
      Scope(state: State.uploadCase, action: Action.uploadCase) { ImageUploadFeature() }
    }
  }
}

extension GalleryFeature.Destination.State: EphemeralState {
  /// The dialog goes away with its first button; the sheet stays until dismissed.
  public func isDismissed(by action: GalleryFeature.Destination.Action) -> Bool {
    if case .confirmDelete = self, case .confirmDelete = action { true } else { false }
  }
}

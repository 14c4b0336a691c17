import Foundation
import ImageUpload
import Unidirectional

/// The gallery of uploaded images — the worked example of navigation: a list of rows (`forEach` over an
/// `IdentifiedArray`), a detail screen pushed on a stack (`forEach` over `StackState`), a "delete?" dialog and the
/// upload sheet presented from one destination enum (`ifLet` over `PresentationState`).
///
/// - "Upload" presents `ImageUploadFeature` as a sheet. When it reports the uploaded media ids, the gallery adds
///   the items and dismisses the sheet — which cancels the sheet's remaining effects (its status timer). Dismissing
///   the sheet mid-upload (`.destination(.dismiss)`) cancels the upload.
/// - Tapping a row pushes its detail screen, which reads the image's information and can close itself
///   (`@Dependency(\.dismiss)` pops it). Popping it cancels whatever it is still loading.
/// - "Delete" on a detail screen presents a confirmation dialog; confirming removes the item, pops every detail
///   screen of it, and the dialog goes away by itself (it is ephemeral state).
///
/// ```swift
/// let store = Store(initialState: GalleryFeature.State()) { GalleryFeature() }
/// store.send(.uploadTapped)
/// store.send(.destination(.presented(.upload(.itemsPicked(images)))))
/// // … once uploaded:
/// store.send(.row(id: store.rows[0].id, action: .tapped))
/// ```
public struct GalleryFeature: Reducer {
  /// The gallery's state: the rows, the navigation stack, and what is presented over them.
  ///
  /// ```swift
  /// let state = GalleryFeature.State(items: [item])
  /// state.rows.count   // 1
  /// state.path.isEmpty // true
  /// ```
  public struct State: Equatable, Sendable {
    /// The uploaded items, newest last.
    public var rows: IdentifiedArrayOf<GalleryRowFeature.State>
    /// The screens pushed over the list.
    public var path: StackState<Path.State>
    /// The dialog or sheet presented over everything, if any.
    @PresentationState public var destination: Destination.State?

    /// A gallery showing `items`, with nothing pushed or presented.
    public init(
      items: [GalleryItem] = [], path: StackState<Path.State> = StackState(), destination: Destination.State? = nil
    ) {
      self.rows = IdentifiedArray(items.map(GalleryRowFeature.State.init))
      self.path = path
      self.destination = destination
    }

    /// The items, in list order.
    public var items: [GalleryItem] { rows.map(\.item) }
  }

  /// Everything that can happen in the gallery.
  ///
  /// ```swift
  /// store.send(.uploadTapped)
  /// store.send(.row(id: "m1", action: .tapped))
  /// store.send(.path(.element(id: 0, action: .detail(.deleteTapped))))
  /// store.send(.destination(.presented(.confirmDelete(.confirm("m1")))))
  /// ```
  public enum Action: Equatable, Sendable {
    /// An action of one row.
    case row(id: MediaID, action: GalleryRowFeature.Action)
    /// A push, a pop, or an action of a pushed screen.
    case path(StackActionOf<Path>)
    /// An action of the presented dialog or sheet, or its dismissal.
    case destination(PresentationAction<Destination.Action>)
    /// The user asked to upload images: presents the upload sheet.
    case uploadTapped

    /// Embeds and extracts ``row(id:action:)`` actions.
    public static let rowCase = CasePath<Action, (id: MediaID, action: GalleryRowFeature.Action)>(Action.row) {
      if case let .row(id, action) = $0 { (id, action) } else { nil }
    }
    /// Embeds and extracts ``path(_:)`` actions.
    public static let pathCase = CasePath(Action.path) { if case let .path(action) = $0 { action } else { nil } }
    /// Embeds and extracts ``destination(_:)`` actions.
    public static let destinationCase = CasePath(Action.destination) {
      if case let .destination(action) = $0 { action } else { nil }
    }
  }

  /// The most images one upload may hold.
  public static let maxImagesPerUpload = 10

  /// The feature.
  public init() {}

  /// The gallery's own logic, then the rows, the stack and the destination.
  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .row(id, .tapped):
        guard let row = state.rows[id: id] else { return .none }
        state.path.append(.detail(GalleryDetailFeature.State(item: row.item)))
        return .none

      case .row:
        return .none

      case let .path(.element(_, .detail(.delegate(.deleteRequested(item))))):
        state.destination = .confirmDelete(Self.confirmDeletion(of: item))
        return .none

      case .path:
        return .none

      case let .destination(.presented(.confirmDelete(.confirm(id)))):
        state.rows.remove(id: id)
        for (elementID, element) in zip(state.path.ids, state.path) where element.item.id == id {
          state.path.pop(from: elementID)
          break
        }
        return .none

      case let .destination(.presented(.upload(.delegate(.uploadCompleted(ids))))):
        guard case let .upload(upload) = state.destination else { return .none }
        for (id, image) in zip(ids, upload.pickedImages) {
          state.rows.append(GalleryRowFeature.State(item: GalleryItem(id: id, fileURL: image.fileURL)))
        }
        state.destination = nil
        return .none

      case .destination:
        return .none

      case .uploadTapped:
        state.destination = .upload(ImageUploadFeature.State(maxCount: Self.maxImagesPerUpload, mediaType: .archive))
        return .none
      }
    }
    .forEach(\.rows, action: Action.rowCase) { GalleryRowFeature() }
    .forEach(\.path, action: Action.pathCase) { Path() }
    .ifLet(\.$destination, action: Action.destinationCase) { Destination() }
  }

  /// The dialog that confirms deleting `item`.
  public static func confirmDeletion(of item: GalleryItem) -> ConfirmationDialogState<Destination.ConfirmDelete> {
    ConfirmationDialogState(
      title: "Delete “\(item.name)”?",
      message: "It is removed from the gallery.",
      buttons: [
        ButtonState(role: .destructive, action: .confirm(item.id), label: "Delete"),
        ButtonState(role: .cancel, label: "Cancel"),
      ])
  }
}

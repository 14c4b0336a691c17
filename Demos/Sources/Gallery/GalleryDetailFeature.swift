import Foundation
import ImageUpload
import Images
import Unidirectional

/// The detail screen of one gallery item, pushed on the gallery's navigation stack: loads the image's type and
/// size when it appears, asks the gallery to delete the item, and closes itself with `@Dependency(\.dismiss)`.
///
/// Popping the screen cancels the loading if it is still running.
///
/// ```swift
/// store.send(.path(.element(id: 0, action: .detail(.onAppear))))
/// store.send(.path(.element(id: 0, action: .detail(.closeTapped))))   // pops it
/// ```
public struct GalleryDetailFeature: Reducer {
  /// What the detail screen shows.
  ///
  /// ```swift
  /// GalleryDetailFeature.State(item: item).info   // .loading until the image is read
  /// ```
  public struct State: Equatable, Sendable {
    /// The item shown.
    public var item: GalleryItem
    /// The image's type and size, once read.
    public var info: Info

    /// The detail of `item`, its information not read yet.
    public init(item: GalleryItem, info: Info = .loading) {
      self.item = item
      self.info = info
    }
  }

  /// The image's information as the screen shows it.
  public enum Info: Equatable, Sendable {
    /// Being read.
    case loading
    /// Read: the content type and the size in bytes.
    case loaded(contentType: String, byteCount: Int64)
    /// The file could not be read; the reason.
    case failed(String)

    /// The line shown under the image: `"image/png, 1.2 KB"`, `"Loading…"` or `"✗ …"`.
    public var text: String {
      switch self {
      case .loading: "Loading…"
      case let .loaded(contentType, byteCount):
        "\(contentType), \(ByteCountFormatter.string(fromByteCount: byteCount, countStyle: .file))"
      case let .failed(reason): "✗ \(reason)"
      }
    }
  }

  /// What can happen on the detail screen.
  ///
  /// ```swift
  /// store.send(.path(.element(id: 0, action: .detail(.deleteTapped))))
  /// ```
  public enum Action: Equatable, Sendable {
    /// The screen appeared: read the image's information.
    case onAppear
    /// The image's information was read, or could not be.
    case infoLoaded(Result<LoadedImage, ImageUploadError>)
    /// The user asked to delete the item (the gallery confirms first).
    case deleteTapped
    /// The user closed the screen.
    case closeTapped
    /// Messages for the gallery.
    case delegate(Delegate)

    /// What the gallery is told.
    public enum Delegate: Equatable, Sendable {
      /// Delete this item, once the user has confirmed.
      case deleteRequested(GalleryItem)
    }
  }

  @Dependency(\.dismiss) var dismiss
  @Dependency(\.imageLoader) var imageLoader

  /// The feature.
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      state.info = .loading
      let (imageLoader, fileURL) = (imageLoader, state.item.fileURL)
      return .run { send in
        let loaded = try await imageLoader.load([PickedImage(fileURL: fileURL)])
        guard let image = loaded.first else {
          throw ImageUploadError.unreadableFile(path: fileURL.path, reason: "empty")
        }
        send(.infoLoaded(.success(image)))
      } catch: { error, send in
        send(.infoLoaded(.failure(ImageUploadError(error))))
      }

    case let .infoLoaded(.success(image)):
      state.info = .loaded(contentType: image.contentType, byteCount: image.byteCount)
      return .none

    case let .infoLoaded(.failure(error)):
      state.info = .failed(error.description)
      return .none

    case .deleteTapped:
      return .send(.delegate(.deleteRequested(state.item)))

    case .closeTapped:
      let dismiss = dismiss
      return .run { _ in await dismiss() }

    case .delegate:
      return .none
    }
  }
}

import ImageUpload
import Unidirectional

/// One row of the gallery list: shows an item and marks it as a favorite. Tapping it is handled by the gallery
/// (it pushes the detail screen).
///
/// ```swift
/// Reduce { … }.forEach(\.rows, action: Action.rowCase) { GalleryRowFeature() }
/// ```
public struct GalleryRowFeature: Reducer {
  /// The row's state: the item it shows.
  ///
  /// ```swift
  /// GalleryRowFeature.State(item: item).id == item.id   // true
  /// ```
  public struct State: Equatable, Sendable, Identifiable, Codable {
    /// The item shown.
    public var item: GalleryItem

    /// A row showing `item`.
    public init(item: GalleryItem) { self.item = item }

    /// The item's id.
    public var id: MediaID { item.id }
  }

  /// What can happen to a row.
  ///
  /// ```swift
  /// store.send(.row(id: "m1", action: .favoriteTapped))
  /// ```
  public enum Action: Equatable, Sendable {
    /// The user marked or unmarked the item as a favorite.
    case favoriteTapped
    /// The user opened the item (the gallery pushes its detail screen).
    case tapped
  }

  /// The feature.
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .favoriteTapped:
      state.item.isFavorite.toggle()
      return .none
    case .tapped:
      return .none
    }
  }
}

import Unidirectional

extension GalleryFeature {
  /// The screens the gallery pushes on its stack: a stack element enum (one case today), each case scoped to
  /// its feature.
  ///
  /// ```swift
  /// state.path.append(.detail(GalleryDetailFeature.State(item: item)))
  /// ```
  public struct Path: Reducer {
    /// A pushed screen.
    public enum State: Equatable, Sendable {
      /// An item's detail screen.
      case detail(GalleryDetailFeature.State)

      /// Embeds and extracts ``detail(_:)``.
      public static let detailCase = CasePath(State.detail) { if case let .detail(state) = $0 { state } else { nil } }

      /// The item the screen shows.
      public var item: GalleryItem {
        switch self {
        case let .detail(detail): detail.item
        }
      }
    }

    /// An action of a pushed screen.
    public enum Action: Equatable, Sendable {
      /// An action of a detail screen.
      case detail(GalleryDetailFeature.Action)

      /// Embeds and extracts ``detail(_:)``.
      public static let detailCase = CasePath(Action.detail) {
        if case let .detail(action) = $0 { action } else { nil }
      }
    }

    /// The screens.
    public init() {}

    public var body: some Reducer<State, Action> {
      Scope(state: State.detailCase, action: Action.detailCase) { GalleryDetailFeature() }
    }
  }
}

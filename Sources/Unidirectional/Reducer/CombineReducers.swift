/// Groups reducers so modifiers (`.ifLet`, `.dependency`) apply to all of them.
///
/// ```swift
/// CombineReducers {
///   Scope(state: \.upload, action: Action.uploadCase) { ImageUploadFeature() }
///   Reduce { state, action in … }
/// }
/// .dependency(\.clock, ImmediateClock())
/// ```
public struct CombineReducers<State, Action: Sendable, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline let reducers: Reducers

  /// Combines the reducers built by `build`.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}

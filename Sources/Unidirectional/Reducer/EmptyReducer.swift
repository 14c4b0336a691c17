/// A reducer that changes nothing and returns no effect.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   EmptyReducer()
/// }
/// ```
public struct EmptyReducer<State, Action: Sendable>: Reducer {
  /// A reducer that does nothing.
  @inlinable public init() {}

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

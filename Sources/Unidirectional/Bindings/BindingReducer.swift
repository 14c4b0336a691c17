/// Applies the binding actions of a ``BindableAction`` to the state: each `.binding(.set(\.field, value))` writes
/// `value` at `\.field`, and starts no effect.
///
/// Put it before the feature's own logic, which then sees the state after the write:
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in
///     switch action {
///     case .binding(\.email), .binding(\.password):
///       state.isFormValid = !state.email.isEmpty && !state.password.isEmpty
///       return .none
///     …
///     }
///   }
/// }
/// ```
///
/// Put it after to see the state before the write. When the binding case lives in a nested view action
/// (`case view(View)` with `enum View: BindableAction`), name that case:
///
/// ```swift
/// BindingReducer(action: Action.viewCase)
/// ```
public struct BindingReducer<State, Action: Sendable, ViewAction: BindableAction>: Reducer
where ViewAction.State == State {
  @usableFromInline let toViewAction: (Action) -> ViewAction?

  /// A reducer that applies the feature's own binding actions.
  @inlinable
  public init() where Action == ViewAction {
    self.toViewAction = { $0 }
  }

  /// A reducer that applies the binding actions of the view actions `toViewAction` extracts.
  @inlinable
  public init(action toViewAction: CasePath<Action, ViewAction>) {
    self.toViewAction = toViewAction.extract
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let binding = toViewAction(action)?.binding else { return .none }
    binding.apply(&state)
    return .none
  }
}

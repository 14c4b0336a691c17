/// An action with a `binding` case that carries a ``BindingAction`` of the feature's state: a form's fields are
/// written by one case, applied by ``BindingReducer``.
///
/// ```swift
/// struct Form: Reducer {
///   struct State: Equatable { var title = ""; var isValid = false }
///   enum Action: BindableAction, Equatable {
///     case binding(BindingAction<State>)
///     case saveTapped
///   }
///   var body: some ReducerOf<Self> {
///     BindingReducer()
///     Reduce { state, action in
///       switch action {
///       case .binding(\.title):
///         state.isValid = !state.title.isEmpty
///         return .none
///       case .binding, .saveTapped:
///         return .none
///       }
///     }
///   }
/// }
/// store.send(.set(\.title, "Groceries"))   // or .binding(.set(\.title, "Groceries"))
/// ```
///
/// The `binding` case satisfies ``binding(_:)``. ``binding-swift.property`` finds the case's payload by reflection
/// (≈0.5 µs for an action of another case, ≈2.5 µs for a binding, on Linux), which ``BindingReducer`` pays for
/// every action. A feature that sends many actions can write it out, which makes it a plain pattern match:
///
/// ```swift
/// var binding: BindingAction<State>? { if case let .binding(action) = self { action } else { nil } }
/// ```
public protocol BindableAction<State>: Sendable {
  /// The state whose fields the binding actions write.
  associatedtype State

  /// The action that carries `action`: the `binding` case.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding action this action carries, or nil when it is another case.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  /// The payload of the `binding` case, found by reflection.
  public var binding: BindingAction<State>? {
    let mirror = Mirror(reflecting: self)
    guard mirror.displayStyle == .enum, let child = mirror.children.first, child.label == "binding" else {
      return nil
    }
    return child.value as? BindingAction<State>
  }

  /// The binding action that writes `value` at `keyPath`: `store.send(.set(\.title, "x"))`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable,
    _ value: Value
  ) -> Self {
    .binding(.set(keyPath, value))
  }
}

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
/// The `binding` case satisfies `binding(_:)`, and the `binding` property has a default: another case is ruled
/// out by the runtime's case tag (≈0.1 µs through ``BindingReducer``, release, Linux), and a binding is read by
/// reflection (≈4 µs: once per edit). A feature that sends bindings in bulk can write it out, a plain pattern match:
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
    // Another case than the one `binding(_:)` makes is ruled out by its tag, without reflection.
    if let tag = EnumCaseTag.of(self), tag != EnumCaseTag.of(caseOf: { Self.binding(.probe) }) { return nil }
    let mirror = Mirror(reflecting: self)
    guard mirror.displayStyle == .enum, let child = mirror.children.first, child.label == "binding" else {
      return nil
    }
    return child.value as? BindingAction<State>
  }

  /// The binding action that writes `value` at `keyPath`: `store.send(.set(\.title, "x"))`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>,
    _ value: Value
  ) -> Self {
    .binding(.set(keyPath, value))
  }
}

import Unidirectional

/// The root of the key paths that name a bindable action's fields in a `TestStore`: `\.binding.title` is
/// `\BindableActionCases<Action>.binding.title`, and reads the case path of the binding writes of `title`, so the
/// TCA spellings `store.send(\.binding.title, "x")` and `store.receive(\.binding.title)` work without macros.
///
/// ```swift
/// await store.send(\.binding.title, "Milk") { $0.title = "Milk" }
/// await store.receive(\.binding.isValid, true) { $0.isValid = true }
/// ```
public struct BindableActionCases<Action: BindableAction> {
  /// The fields of `Action.State`, each the case path of its binding writes.
  public var binding: Fields { Fields() }

  init() {}

  /// The fields of a bindable action's state, found by dynamic member lookup.
  ///
  /// ```swift
  /// let title: KeyPath<BindableActionCases<Form.Action>, CasePath<Form.Action, String>> = \.binding.title
  /// ```
  @dynamicMemberLookup
  public struct Fields {
    /// The binding writes of the field `keyPath`.
    public subscript<Value: Equatable & Sendable>(
      dynamicMember keyPath: WritableKeyPath<Action.State, Value>
    ) -> CasePath<Action, Value> {
      .binding(keyPath)
    }
  }

  /// The case path `keyPath` names.
  static func casePath<Value>(_ keyPath: KeyPath<Self, CasePath<Action, Value>>) -> CasePath<Action, Value> {
    Self()[keyPath: keyPath]
  }
}

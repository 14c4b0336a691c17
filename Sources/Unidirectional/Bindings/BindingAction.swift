/// A write of one field of `Root`: the action a form control sends when the user edits it, carried by a
/// ``BindableAction``'s `binding` case and applied by ``BindingReducer``.
///
/// Any writable key path of the state whose value is `Equatable & Sendable` can be bound; no property wrapper is
/// needed:
///
/// ```swift
/// struct State: Equatable { var title = ""; var isPinned = false }
/// enum Action: BindableAction { case binding(BindingAction<State>) }
///
/// store.send(.binding(.set(\.title, "Groceries")))
///
/// switch action {
/// case .binding(\.title):   // any write of `title` (key path pattern, `~=`)
///   state.isDirty = true
///   return .none
/// case .binding(.set(\.isPinned, true)):   // that exact write (`==`)
///   return .send(.pinned)
/// case .binding:
///   return .none
/// }
/// ```
///
/// Two binding actions are equal when they write the same key path with equal values, so a `TestStore` can
/// `receive(.binding(.set(\.title, "x")))`.
///
/// It is `Sendable` whatever the isolation of `Root`: its key path is only ever applied to state a store owns (see
/// the library's internal `SendableKeyPath`).
public struct BindingAction<Root>: Equatable, @unchecked Sendable {
  /// The field this action writes.
  public let keyPath: PartialKeyPath<Root>
  /// The value it writes, type-erased; its type is the key path's value type.
  public let value: any Equatable & Sendable
  /// Writes `value` at `keyPath`: captured where both types are still known.
  @usableFromInline let apply: @Sendable (inout Root) -> Void

  /// An action that writes `value` at `keyPath`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>,
    _ value: Value
  ) -> Self {
    let path = SendableKeyPath(keyPath)
    return Self(keyPath: keyPath, value: value) { $0[keyPath: path.keyPath] = value }
  }

  private init(
    keyPath: PartialKeyPath<Root>,
    value: any Equatable & Sendable,
    apply: @escaping @Sendable (inout Root) -> Void
  ) {
    self.keyPath = keyPath
    self.value = value
    self.apply = apply
  }

  /// The value this action writes at `keyPath`, or nil when it writes another field.
  func valueIfWriting<Value>(_ keyPath: WritableKeyPath<Root, Value>) -> Value? {
    self.keyPath as AnyKeyPath == keyPath ? value as? Value : nil
  }

  /// A binding action that writes nothing: a value of the `binding` case whose tag can be read.
  static var probe: Self { Self(keyPath: \Root.self, value: 0) { _ in } }

  /// Same key path, equal values (compared as the key path's value type).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && isEqual(lhs.value, rhs.value)
  }

  /// Matches a binding action by the field it writes, whatever the value: `case .binding(\.title):`.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, bindingAction: Self) -> Bool {
    bindingAction.keyPath as AnyKeyPath == keyPath
  }
}

extension BindingAction: CustomDumpStringConvertible {
  /// `.set(\Form.State.title, "x")`, as in TCA's dumps.
  public var customDumpDescription: String {
    ".set(\(describeKeyPath(keyPath, root: Root.self)), \(describe(value)))"
  }
}

/// Whether `rhs` is a `Value` equal to `lhs` (`lhs` is an opened existential at the call site).
private func isEqual<Value: Equatable>(_ lhs: Value, _ rhs: any Equatable & Sendable) -> Bool {
  lhs == rhs as? Value
}

/// `\Form.State.title`: the key path's own description (which names the root type without its parents) with the
/// full root type name, and without the addresses it prints for computed properties (they change every run).
private func describeKeyPath(_ keyPath: AnyKeyPath, root: Any.Type) -> String {
  var text = String(describing: keyPath)
  let shortRoot = "\\" + String(describing: root)
  if text.hasPrefix(shortRoot) {
    text = "\\" + typeName(root) + text.dropFirst(shortRoot.count)
  }
  while let start = text.range(of: "<computed 0x"), let end = text[start.upperBound...].firstIndex(of: " ") {
    text.removeSubrange(text.index(start.lowerBound, offsetBy: "<computed".count)..<end)
  }
  return text
}

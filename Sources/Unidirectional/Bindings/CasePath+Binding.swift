extension CasePath where Root: BindableAction, Value: Equatable & Sendable {
  /// The binding writes of one field, as a case path: embeds a value as `.binding(.set(keyPath, value))`, and
  /// extracts the value of a binding action that writes `keyPath`.
  ///
  /// ```swift
  /// await store.receive(.binding(\.title))          // any write of `title`
  /// await store.receive(.binding(\.title), "Milk")  // a write of "Milk"
  /// ```
  public static func binding(_ keyPath: WritableKeyPath<Root.State, Value>) -> Self {
    let path = SendableKeyPath(keyPath)
    return CasePath({ .binding(.set(path.keyPath, $0)) }, extract: { $0.binding?.valueIfWriting(path.keyPath) })
  }
}

extension CasePath where Value: BindableAction {
  /// The binding writes of one field of a nested bindable action (a view action).
  ///
  /// ```swift
  /// await store.receive(Action.viewCase.binding(\.email), "blob@pointfree.co")
  /// ```
  public func binding<Field: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Value.State, Field>
  ) -> CasePath<Root, Field> {
    let field = CasePath<Value, Field>.binding(keyPath)
    return CasePath<Root, Field>({ self.embed(field.embed($0)) }, extract: { self.extract($0).flatMap(field.extract) })
  }
}

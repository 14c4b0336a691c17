extension Reducer {
  /// Overrides a dependency for this reducer and the effects it starts.
  ///
  /// ```swift
  /// Scope(state: \.upload, action: Action.uploadCase) { ImageUploadFeature() }
  ///   .dependency(\.uuid, .incrementing)
  /// ```
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> DependencyOverrideReducer<Self> {
    DependencyOverrideReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Changes dependencies for this reducer and the effects it starts.
  public func transformDependencies(
    _ transform: @escaping @Sendable (inout DependencyValues) -> Void
  ) -> DependencyOverrideReducer<Self> {
    DependencyOverrideReducer(base: self, update: transform)
  }
}

/// A reducer that runs its base with changed dependencies. Made by ``Reducer/dependency(_:_:)``.
public struct DependencyOverrideReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: @Sendable (inout DependencyValues) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var values = DependencyValues.current
    update(&values)
    let scope = ReduceScope(values: values)
    return withExtendedLifetime(scope) {
      ReduceScope.with(scope) { base.reduce(into: &state, action: action) }
    }
  }
}

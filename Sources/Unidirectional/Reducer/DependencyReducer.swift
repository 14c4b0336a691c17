extension Reducer {
  /// Overrides a dependency for this reducer and the effects it starts.
  ///
  /// ```swift
  /// Scope(state: \.upload, action: Action.uploadCase) { ImageUploadFeature() }
  ///   .dependency(\.uuid, .incrementing)
  /// ```
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> DependencyOverrideReducer<Self> {
    let path = SendableKeyPath(keyPath)
    return DependencyOverrideReducer(base: self) { $0[keyPath: path.keyPath] = value }
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
    DependencyValues.configuring { update(&values) }
    let scope = ReducerDependencies(values: values)
    return withExtendedLifetime(scope) {
      ReducerDependencies.with(scope) { base.reduce(into: &state, action: action) }
    }
  }
}

extension DependencyOverrideReducer {
  /// Adds an override to this one instead of wrapping it: chained `.dependency` calls make one layer.
  ///
  /// The new override is applied first, so the innermost call still wins for a key set twice, exactly as if the
  /// calls were nested.
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> Self {
    let path = SendableKeyPath(keyPath)
    return transformDependencies { $0[keyPath: path.keyPath] = value }
  }

  /// Adds a transformation to this override layer instead of wrapping it (applied before the existing ones).
  public func transformDependencies(
    _ transform: @escaping @Sendable (inout DependencyValues) -> Void
  ) -> Self {
    let inner = update
    return Self(base: base) { values in
      transform(&values)
      inner(&values)
    }
  }
}

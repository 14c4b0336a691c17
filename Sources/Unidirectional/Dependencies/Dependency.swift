/// Reads a dependency from the ``DependencyValues`` in effect where it is read.
///
/// Inside a reducer run by a store that is the store's values (with any ``Reducer/dependency(_:_:)`` overrides);
/// inside an effect, the values captured when the effect was created; elsewhere, the innermost
/// ``withDependencies(_:operation:)-swift.func`` scope.
///
/// ```swift
/// struct Feature: Reducer {
///   @Dependency(\.uuid) var uuid
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     state.ids.append(uuid())
///     return .none
///   }
/// }
/// ```
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
  @usableFromInline let path: SendableKeyPath<KeyPath<DependencyValues, Value>>

  /// Reads the dependency at `keyPath`.
  public init(_ keyPath: KeyPath<DependencyValues, Value>) {
    self.path = SendableKeyPath(keyPath)
  }

  /// Reads the dependency keyed by the type `key` itself.
  ///
  /// ```swift
  /// @Dependency(APIClient.self) var apiClient
  /// ```
  public init<Key: TestDependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.path = SendableKeyPath(\DependencyValues.[type: DependencyTypeKey<Key>()])
  }

  /// The current value of the dependency.
  @inlinable
  public var wrappedValue: Value {
    if let value = ReducerDependencies.read(path.keyPath) { return value }
    return DependencyValues.current[keyPath: path.keyPath]
  }
}

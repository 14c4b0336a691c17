/// Runs `operation` with dependencies changed by `update`; stores created and effects started inside see them.
///
/// ```swift
/// let id = withDependencies { $0.uuid = .incrementing } operation: {
///   @Dependency(\.uuid) var uuid
///   return uuid()
/// }
/// ```
@discardableResult
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.current
  try DependencyValues.configuring { try update(&values) }
  return try DependencyValues.withCurrent(values, operation)
}

extension DependencyValues {
  /// Runs `operation` with `values` as the current dependencies.
  static func withCurrent<R>(_ values: DependencyValues, _ operation: () throws -> R) rethrows -> R {
    // A reducer's scope would shadow the task-local values, so none is active inside.
    try ReducerDependencies.with(nil) {
      try DependencyValues.$taskValues.withValue(values, operation: operation)
    }
  }
}

/// Runs the asynchronous `operation` with dependencies changed by `update`.
@discardableResult
public func withDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) throws -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues.current
  try DependencyValues.configuring { try update(&values) }
  return try await DependencyValues.$taskValues.withValue(values, operation: operation, isolation: isolation)
}

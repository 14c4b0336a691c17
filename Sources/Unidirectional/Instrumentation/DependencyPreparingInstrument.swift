/// An instrument that changes the dependencies of the store it is installed on, after the store's own overrides
/// and before the store is made: an action recorder wraps the non-deterministic built-ins to record what they give.
///
/// ```swift
/// final class Recording: StoreInstrument, DependencyPreparingInstrument {
///   func prepareDependencies(_ values: inout DependencyValues) { tape.install(into: &values) }
/// }
/// ```
package protocol DependencyPreparingInstrument: AnyObject {
  /// Changes the store's dependencies.
  func prepareDependencies(_ values: inout DependencyValues)
}

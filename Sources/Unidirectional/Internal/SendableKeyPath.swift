/// A key path carried across concurrency domains.
///
/// A key path is an immutable object, so sharing one between threads is safe. Swift calls a key path
/// non-`Sendable` when the property it names is isolated to an actor — every property of a type declared in an
/// Xcode 26 app target, where declarations are main-actor isolated by default — because a read through it from
/// elsewhere would leave the actor. The library applies the key paths users give it only to values it owns: a
/// store's state (under the store's lock), a reduction's `inout` state, a task's dependency values — never to a value
/// an actor is using. So its operators take plain key paths, as TCA's do, and carry them in this box where a closure
/// or a value must be `Sendable`.
///
/// ```swift
/// let path = SendableKeyPath(keyPath)
/// return { @Sendable state in state[keyPath: path.keyPath] }
/// ```
@usableFromInline
struct SendableKeyPath<Path: AnyKeyPath>: @unchecked Sendable {
  @usableFromInline let keyPath: Path

  @inlinable
  init(_ keyPath: Path) {
    self.keyPath = keyPath
  }
}

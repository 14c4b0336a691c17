/// Runs a root reducer as a presented feature, the way `TestStore` runs every feature (as TCA does): its
/// `@Dependency(\.dismiss)` is available and, called from its effects, runs `onDismiss` — after any dismissal the
/// dependencies already held (one a test set up).
package struct PresentedRootReducer<Base: Reducer>: Reducer {
  let base: Base
  let dismiss: @Sendable () async -> Void

  /// Wraps `base`, making `dependencies.dismiss` available.
  package init(
    base: Base, dependencies: inout DependencyValues, onDismiss: @escaping @Sendable () async -> Void
  ) {
    let previous = dependencies.dismiss
    dependencies.dismiss = DismissEffect(kind: .presentation)
    self.base = base
    self.dismiss = {
      if case let .custom(custom) = previous.kind { await custom() }
      await onDismiss()
    }
  }

  package func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let dismiss = dismiss
    return base.reduce(into: &state, action: action).dismissible { _ in await dismiss() }
  }
}

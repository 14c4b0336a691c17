/// Dismisses the feature that reads it: a presented child (`ifLet` over ``PresentationState``) sends its
/// presentation's ``PresentationAction/dismiss``; a stack element (`forEach` over ``StackState``) pops itself and
/// everything above it (``StackAction/popFrom(id:)``). Call it from an effect:
///
/// ```swift
/// struct Detail: Reducer {
///   @Dependency(\.dismiss) var dismiss
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .closeTapped:
///       return .run { _ in await dismiss() }
///     }
///   }
/// }
/// ```
///
/// Outside a presentation (a root `Store`), calling it is a runtime issue. A `TestStore` is itself a presentation:
/// dismissing its root feature marks the store dismissed (``DependencyValues/isPresented`` is true there too).
/// To test a child alone, override it: `$0.dismiss = DismissEffect { dismissed.setValue(true) }`.
public struct DismissEffect: Sendable {
  enum Kind: Sendable {
    /// Not presented: dismissing is a runtime issue.
    case unavailable
    /// Presented by a navigation reducer: dismisses the presentation the calling effect belongs to.
    case presentation
    /// Set by a test or a host.
    case custom(@Sendable () async -> Void)
  }

  let kind: Kind

  init(kind: Kind) {
    self.kind = kind
  }

  /// What a navigation reducer gives the feature it presents.
  @usableFromInline static var presentation: Self { Self(kind: .presentation) }

  /// A dismissal that runs `dismiss`: for testing a presented feature on its own.
  public init(_ dismiss: @escaping @Sendable () async -> Void) {
    self.kind = .custom(dismiss)
  }

  /// Dismisses the feature. Call it from an effect of the feature; once the feature is dismissed its effects are
  /// cancelled, so code after `await dismiss()` should not expect to send anything more.
  public func callAsFunction(fileID: StaticString = #fileID, line: UInt = #line) async {
    switch kind {
    case let .custom(dismiss):
      await dismiss()
    case .presentation:
      if let dismissal = Dismissal.current {
        await dismissal.dismiss()
      } else {
        reportIssue(
          """
          A reducer requested dismissal at \(fileID):\(line) from outside its own effects. Call \
          @Dependency(\\.dismiss) inside an effect returned by the presented feature (`.run { _ in await \
          dismiss() }`).
          """, fileID: fileID, line: line)
      }
    case .unavailable:
      reportIssue(
        """
        A reducer requested dismissal at \(fileID):\(line), but couldn't be dismissed: it is not presented by an \
        `ifLet` over PresentationState or a `forEach` over StackState. A reducer that runs both at the root and \
        presented can check @Dependency(\\.isPresented) first.
        """, fileID: fileID, line: line)
    }
  }

  /// Whether calling it dismisses something (it is not the root's unavailable value).
  var isAvailable: Bool {
    if case .unavailable = kind { return false }
    return true
  }
}

/// Runs `base` as a presented feature, `@Dependency(\.dismiss)` dismissing its presentation: what
/// `base.dependency(\.dismiss, .presentation)` does, with the dependencies made once per store, not per action.
@usableFromInline
struct PresentedReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base

  @inlinable
  init(base: Base) {
    self.base = base
  }

  @inlinable
  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let scope = ReducerDependencies.activePresented() else {
      return base.dependency(\.dismiss, .presentation).reduce(into: &state, action: action)
    }
    return ReducerDependencies.with(scope) { base.reduce(into: &state, action: action) }
  }
}

/// What dismissing means for the effect running now: set by the navigation reducer that runs the effect's feature,
/// innermost presentation first. Task-local, so work started inside the effect inherits it.
struct Dismissal: Sendable {
  let dismiss: @Sendable () async -> Void

  @TaskLocal static var current: Dismissal?
}

extension Effect {
  /// Runs every asynchronous operation of this effect (and its error handler) with `dismiss` as what
  /// `@Dependency(\.dismiss)` does inside it; `dismiss` is handed the operation's `Send`.
  @usableFromInline
  func dismissible(by dismiss: @escaping @Sendable (Send<Action>) async -> Void) -> Self {
    rebuilt(
      send: { $0 },
      run: { run in
        let operation = run.operation
        var handler: (@Sendable (any Error, Send<Action>) async -> Void)?
        if let base = run.handler {
          handler = { error, send in
            await Dismissal.$current.withValue(Dismissal { await dismiss(send) }) { await base(error, send) }
          }
        }
        return Run(
          priority: run.priority,
          operation: { send in
            try await Dismissal.$current.withValue(Dismissal { await dismiss(send) }) { try await operation(send) }
          },
          handler: handler, dependencies: run.dependencies, namespace: run.namespace)
      },
      id: { $0 })
  }
}

private enum DismissEffectKey: DependencyKey {
  static let liveValue = DismissEffect(kind: .unavailable)
  static let testValue = DismissEffect(kind: .unavailable)
}

extension DependencyValues {
  /// Dismisses the presented feature that reads it (see ``DismissEffect``). Unavailable at the root of a `Store`:
  /// calling it there is a runtime issue.
  public var dismiss: DismissEffect {
    get { self[DismissEffectKey.self] }
    set { self[DismissEffectKey.self] = newValue }
  }
}

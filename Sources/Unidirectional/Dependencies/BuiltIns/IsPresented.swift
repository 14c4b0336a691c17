extension DependencyValues {
  /// Whether the feature reading it is presented — by an `ifLet` over ``PresentationState``, a `forEach` over
  /// ``StackState``, or a `TestStore` — so that `@Dependency(\.dismiss)` can dismiss it.
  ///
  /// ```swift
  /// @Dependency(\.isPresented) var isPresented
  /// @Dependency(\.dismiss) var dismiss
  /// case .doneTapped:
  ///   return isPresented ? .run { _ in await dismiss() } : .send(.reset)
  /// ```
  public var isPresented: Bool { dismiss.isAvailable }
}

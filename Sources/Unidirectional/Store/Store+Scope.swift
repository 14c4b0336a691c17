extension Store {
  /// A store over a part of this store's state whose actions are embedded into this store's actions.
  ///
  /// ```swift
  /// let uploadStore = appStore.scope(state: \.upload, action: AppFeature.Action.upload)
  /// ```
  ///
  /// The child store is observed on its own: an observer of `uploadStore.status` is told when the status changes,
  /// not when anything else in the app does. A call site asked again for the same scope gets the same store while
  /// something holds it (a view keeps its store).
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action embed: @escaping @Sendable (ChildAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column
  ) -> Store<ChildState, ChildAction> {
    let key = childKey(toChildState, ChildAction.self, fileID: fileID, line: line, column: column)
    let make = {
      Store<ChildState, ChildAction>(
        core: ScopedCore(parent: self.core, toChildState: toChildState, embed: embed), parent: self)
    }
    return observation.child(key, make: make) ?? make()
  }

  /// A store over an optional part of this store's state — a presented child, a case of an enum state, a stack
  /// element, an element by id — or nil while that part is nil: how a headless host or a view drives a presented
  /// feature.
  ///
  /// The child store keeps working while the child is present. Once it is gone, the child store stops sending:
  /// each `send` is a runtime issue and changes nothing; its state reads return the child's state as of the child
  /// store's last read or send, and its `states` stream ends. Inside observation tracking, the call registers
  /// whether the child is present: the observer is told once when it appears or goes away, not when the child's
  /// own state changes (observe that through the child store).
  ///
  /// ```swift
  /// if let upload = store.scope(state: \.destination?.upload, action: { .destination(.presented(.upload($0))) }) {
  ///   upload.send(.itemsPicked(images))
  /// }
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action embed: @escaping @Sendable (ChildAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column
  ) -> Store<ChildState, ChildAction>? {
    scope(state: toChildState, action: embed, fileID: fileID, line: line, column: column, observes: true)
  }

  /// The optional scope, registering the child's presence with this store's observers or not (a main-actor
  /// facade registers it with its own).
  func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action embed: @escaping @Sendable (ChildAction) -> Action,
    fileID: StaticString, line: UInt, column: UInt, observes: Bool
  ) -> Store<ChildState, ChildAction>? {
    let initial = core.withState { $0[keyPath: toChildState] }
    if observes {
      observe(toChildState, part: .presence) { key in
        DerivedField(
          key: key, value: initial != nil, derive: { $0[keyPath: toChildState] != nil }, isSame: { $0 == $1 })
      }
    }
    let key = childKey(toChildState, ChildAction.self, fileID: fileID, line: line, column: column)
    guard let initial else {
      observation.removeChild(key)
      return nil
    }
    let path = SendableKeyPath(toChildState)
    let make = {
      Store<ChildState, ChildAction>(
        core: OptionalScopedCore(
          parent: self.core, toChildState: { $0[keyPath: path.keyPath] }, embed: embed, initial: initial,
          fileID: fileID, line: line),
        parent: self)
    }
    return observation.child(key, make: make) ?? make()
  }

  private func childKey<ChildAction>(
    _ state: AnyKeyPath, _: ChildAction.Type, fileID: StaticString, line: UInt, column: UInt
  ) -> ChildStoreKey {
    ChildStoreKey(
      state: state, action: ObjectIdentifier(ChildAction.self), fileID: "\(fileID)", line: line, column: column)
  }
}

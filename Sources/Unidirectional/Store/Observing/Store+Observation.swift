#if canImport(Observation)
  import Observation
#endif

extension Store {
  /// Registers an observation access to `keyPath`, whose value was just read as `value`.
  func observe<Value>(_ keyPath: KeyPath<State, Value>, _ value: Value) {
    #if canImport(Observation)
      let (entry, isNew) = observation.fields.entry(for: keyPath, part: .value) { key in
        KeyPathField(keyPath: keyPath, key: key, value: value, isSame: observationComparison(for: Value.self))
      }
      if isNew { core.trackAccess() }
      observation.registrar.access(self, keyPath: entry.registrarKey)
    #endif
  }

  /// Registers an observation access to `field`, made the first time by `make`: a value derived from the state
  /// (the ids of a collection, whether an optional child is present).
  func observe(_ keyPath: AnyKeyPath, part: ObservedFieldKey.Part, make: (ObservedFieldKey) -> ObservedField<State>) {
    #if canImport(Observation)
      let (entry, isNew) = observation.fields.entry(for: keyPath, part: part, make: make)
      if isNew { core.trackAccess() }
      observation.registrar.access(self, keyPath: entry.registrarKey)
    #endif
  }

  /// Calls `handler` after every batch of actions the store reduces, on the thread that reduced it (a main-actor
  /// facade hops from there). Returns a token for ``removeChangeHandler(_:)``.
  func addChangeHandler(_ handler: @escaping @Sendable () -> Void) -> UInt64 {
    let token = observation.addHandler(handler)
    core.trackAccess()
    return token
  }

  func removeChangeHandler(_ token: UInt64) {
    observation.removeHandler(token)
  }
}

#if canImport(Observation)
  extension Store: Observable {}
#endif

extension Store: ObservableChildStore {
  func notifyObservers() {
    #if canImport(Observation)
      // An observer may send from its change handler, which notifies again while the registrar is still calling
      // that handler (it would be called again, without end): such a notification is deferred until the one in
      // progress returns, then delivered once.
      let notifications = observation.notifications
      let isFirst = notifications.withLock { state in
        if state.isNotifying {
          state.isPending = true
          return false
        }
        state.isNotifying = true
        return true
      }
      guard isFirst else { return }
      while true {
        notifyChanges()
        let again = notifications.withLock { state in
          defer { state.isPending = false }
          if !state.isPending { state.isNotifying = false }
          return state.isPending
        }
        if !again { return }
      }
    #else
      for handler in observation.allHandlers { handler() }
    #endif
  }

  #if canImport(Observation)
    /// Tells the registrar which observed fields changed, then the element stores and child stores, then the
    /// facade's handlers. Fields are compared with the store's lock held (a consistent state); everyone is told
    /// after it is released.
    private func notifyChanges() {
      let (changed, elementStores) = core.withState { state in
        (
          observation.fields.changed(in: state),
          observation.allCollections.flatMap { $0.changedElementStores(in: state) }
        )
      }
      for key in changed { observation.registrar.withMutation(of: self, keyPath: key) {} }
      for store in elementStores { store.notifyObservers() }
      for child in observation.liveChildren { child.notifyObservers() }
      for handler in observation.allHandlers { handler() }
    }
  #endif
}

extension Store {
  /// A store reporting what it does to `observers` (see ``StoreObserver``), running `reducer` from `initialState`
  /// with dependencies changed by `prepareDependencies`.
  ///
  /// ```swift
  /// let tracer = StoreTracer()
  /// let store = Store(initialState: Counter.State(), observers: [tracer.observer(for: Counter.self)]) {
  ///   Counter()
  /// }
  /// ```
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    observers: [any StoreObserver<State, Action>],
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) {
    var dependencies = DependencyValues.current
    DependencyValues.configuring { prepareDependencies(&dependencies) }
    let values = dependencies.isolated()
    let (state, reducer) = withDependencies {
      $0 = values
    } operation: {
      (initialState(), reducer())
    }
    self.init(
      initialState: state, reducer: reducer, dependencies: values, runtime: nil,
      observer: StoreObserverGroup<State, Action>.combining(observers))
  }
}

extension StoreObserverGroup {
  /// One observer for the store to call: `nil` for none, the observer itself for one, a group for several.
  static func combining(_ observers: [any StoreObserver<State, Action>]) -> (any StoreObserver<State, Action>)? {
    switch observers.count {
    case 0: nil
    case 1: observers[0]
    default: StoreObserverGroup(observers)
    }
  }
}

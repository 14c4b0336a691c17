extension Store {
  /// A store reporting what it does to `instruments` (see ``StoreInstrument``), running `reducer` from `initialState`
  /// with dependencies changed by `prepareDependencies`.
  ///
  /// ```swift
  /// let tracer = StoreTracer()
  /// let store = Store(initialState: Counter.State(), instruments: [tracer.instrument(for: Counter.self)]) {
  ///   Counter()
  /// }
  /// ```
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    instruments: [any StoreInstrument<State, Action>],
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
      instrument: StoreInstrumentGroup<State, Action>.combining(instruments))
  }
}

extension StoreInstrumentGroup {
  /// One instrument for the store to call: `nil` for none, the instrument itself for one, a group for several.
  static func combining(_ instruments: [any StoreInstrument<State, Action>]) -> (any StoreInstrument<State, Action>)? {
    switch instruments.count {
    case 0: nil
    case 1: instruments[0]
    default: StoreInstrumentGroup(instruments)
    }
  }
}

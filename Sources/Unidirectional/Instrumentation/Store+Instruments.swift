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
    let (state, reducer, dependencies) = Self.prepare(initialState, reducer) { values in
      prepareDependencies(&values)
      for instrument in instruments {
        (instrument as? any DependencyPreparingInstrument)?.prepareDependencies(&values)
      }
    }
    self.init(
      initialState: state, reducer: reducer, dependencies: dependencies, runtime: nil,
      instrument: combinedInstrument(instruments))
  }
}

/// One instrument for a store to call: `nil` for none, the instrument itself for one, a group for several.
func combinedInstrument<State, Action: Sendable>(
  _ instruments: [any StoreInstrument<State, Action>]
) -> (any StoreInstrument<State, Action>)? {
  switch instruments.count {
  case 0: nil
  case 1: instruments[0]
  default: StoreInstrumentGroup(instruments)
  }
}

import Unidirectional

extension Store where State: Encodable, Action: Encodable {
  /// A store that records every action it reduces to `recorder`'s file (and reports to `instruments`, if any).
  ///
  /// ```swift
  /// let recorder = try ActionRecorder(fileURL: logURL)
  /// let store = Store(initialState: Counter.State(), recordingTo: recorder) {
  ///   Counter()
  /// } withDependencies: {
  ///   $0.clock = ContinuousClock()
  /// }
  /// ```
  ///
  /// Times come from the store's `\.clock`. If the recording cannot start (the recorder already records another
  /// store, the initial state cannot be encoded, the header cannot be written), the store runs unrecorded and a
  /// runtime issue says why.
  @inlinable  // so the recorder's copy into its buffer is made for the feature's own types
  public convenience init<R: Reducer<State, Action>>(
    initialState: State,
    recordingTo recorder: ActionRecorder,
    instruments: [any StoreInstrument<State, Action>] = [],
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) {
    self.init(
      initialState: initialState, instruments: [recorder.instrument(for: R.self)] + instruments, reducer: reducer,
      withDependencies: prepareDependencies)
  }
}

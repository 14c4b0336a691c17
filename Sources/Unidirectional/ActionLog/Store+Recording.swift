extension Store where State: Encodable, Action: Encodable {
  /// A store that records every action it reduces to `recorder`'s file.
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
  public convenience init<R: Reducer<State, Action>>(
    initialState: State,
    recordingTo recorder: ActionRecorder,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) {
    var dependencies = DependencyValues.current
    prepareDependencies(&dependencies)
    let values = dependencies.isolated()
    let session: RecordingSession<State, Action>?
    do {
      session = try recorder.attach(
        initialState: initialState, dependencies: values, defaultFeature: ActionRecorder.defaultFeatureName(for: R.self)
      )
    } catch {
      values.issueReporter.report(
        RuntimeIssue(
          message: "The store is not recorded to \(recorder.fileURL.path): \(error)",
          fileID: "Unidirectional/ActionRecorder", line: 0))
      session = nil
    }
    let hook: ((Action, ActionOrigin, borrowing State) -> Void)? = session.map { session in
      let handle = RecordingProducerHandle(session: session)
      return { action, origin, state in handle.session.append(action, origin: origin, state: state) }
    }
    self.init(initialState: initialState, reducer: reducer(), dependencies: values, runtime: nil, onReduce: hook)
    if let session {
      session.core = core
      session.start()
    }
  }
}

import Unidirectional

/// The store instrument an ``ActionRecorder`` records through: it starts the recording when the store starts and
/// appends every reduced action to it, with what its reducer and effects read from the non-deterministic built-in
/// dependencies (which it wraps before the store is made).
@usableFromInline
final class RecordingInstrument<State: Encodable, Action: Encodable & Sendable>: StoreInstrument,
  DependencyPreparingInstrument, @unchecked Sendable
{
  private let recorder: ActionRecorder
  private let tape = DependencyReadTape()
  private let copy: RecordingSession<State, Action>.Copy
  /// The recording, once the store has started it (retained by `started`); unretained and behind a pointer, so the
  /// send path pays neither a retain and release nor an exclusivity check.
  private let session: UnsafeMutablePointer<Unmanaged<RecordingSession<State, Action>>?>
  private var started: RecordingSession<State, Action>?

  @usableFromInline
  init(
    recorder: ActionRecorder,
    copy:
      @escaping (
        _ actions: UnsafeMutableRawPointer, _ states: UnsafeMutableRawPointer?, _ index: Int, _ action: Action,
        _ state: ReducedState<State>
      ) -> Void
  ) {
    self.recorder = recorder
    self.copy = copy
    session = .allocate(capacity: 1)
    session.initialize(to: nil)
  }

  deinit {
    storeDidEnd()
    session.deinitialize(count: 1)
    session.deallocate()
  }

  /// Writes the header and starts the writer; if the recording cannot start (the recorder already records another
  /// store, the initial state cannot be encoded, the header cannot be written), the store runs unrecorded and a
  /// runtime issue says why.
  @usableFromInline
  func storeDidStart(_ store: InstrumentedStore<State>) {
    do {
      let session: RecordingSession<State, Action> = try recorder.attach(
        initialState: store.initialState, dependencies: store.dependencies,
        defaultFeature: typeName(store.reducerType), tape: tape, copy: copy)
      session.storeLock = store.lock
      started = session
      self.session.pointee = Unmanaged.passUnretained(session)
      session.start()
    } catch {
      store.dependencies.issueReporter.report(
        RuntimeIssue(
          message: "The store is not recorded to \(recorder.fileURL.path): \(error)",
          fileID: "Unidirectional/ActionRecorder", line: 0))
    }
  }

  @usableFromInline
  func prepareDependencies(_ values: inout DependencyValues) {
    tape.install(into: &values)
  }

  @usableFromInline @inline(__always)
  func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    session.pointee?._withUnsafeGuaranteedRef { $0.append(action, origin: reduction.origin, state: state) }
  }

  /// No more actions can come: the writer writes what is left.
  @usableFromInline
  func storeDidEnd() {
    started?.producerDidFinish()
    session.pointee = nil
    started = nil
  }
}

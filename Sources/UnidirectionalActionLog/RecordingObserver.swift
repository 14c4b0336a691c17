import Unidirectional

/// The store observer an ``ActionRecorder`` records through: it starts the recording when the store starts and
/// appends every reduced action to it.
final class RecordingObserver<State: Encodable, Action: Encodable & Sendable>: StoreObserver, @unchecked Sendable {
  private let recorder: ActionRecorder
  /// The recording, once the store has started it; behind a pointer, so the send path pays no exclusivity check.
  private let session: UnsafeMutablePointer<RecordingSession<State, Action>?>

  init(recorder: ActionRecorder) {
    self.recorder = recorder
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
  func storeDidStart(_ store: ObservedStore<State>) {
    do {
      let started: RecordingSession<State, Action> = try recorder.attach(
        initialState: store.initialState, dependencies: store.dependencies,
        defaultFeature: typeName(store.reducerType))
      started.storeLock = store.lock
      session.pointee = started
      started.start()
    } catch {
      store.dependencies.issueReporter.report(
        RuntimeIssue(
          message: "The store is not recorded to \(recorder.fileURL.path): \(error)",
          fileID: "Unidirectional/ActionRecorder", line: 0))
    }
  }

  @inline(__always)
  func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    session.pointee?.append(action, origin: reduction.origin, state: state)
  }

  /// No more actions can come: the writer writes what is left.
  func storeDidEnd() {
    session.pointee?.producerDidFinish()
    session.pointee = nil
  }
}

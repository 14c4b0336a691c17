import Foundation
import Unidirectional

/// Records every action a store reduces to a file, in order — actions sent by the host and actions fed back by
/// effects — for ``ActionLogReplay`` to replay later.
///
/// ```swift
/// let recorder = try ActionRecorder(fileURL: URL(fileURLWithPath: "session.jsonl"))
/// let store = Store(initialState: Counter.State(), recordingTo: recorder) {
///   Counter()
/// }
/// store.send(.incrementTapped)
/// …
/// try await recorder.close()   // writes what is still buffered, then closes the file
/// ```
///
/// The file is JSON Lines: a header naming the feature, the format version and the initial state, then one line
/// per action with its sequence number, origin (`sent` / `received`), the time since recording started on the
/// store's injected clock (seconds), the action (its `Codable` form, as canonical JSON: sorted keys, no
/// whitespace), the ``ActionLogFingerprint`` of the state after it, and what its reducer read from `uuid()`,
/// `date.now`, random numbers and clocks' `now` (``ActionLogReads``: replay gives them back):
///
/// ```
/// {"format":"unidirectional-action-log","version":2,"feature":"Counter","fingerprints":"fnv1a64-structural",…}
/// {"seq":1,"origin":"sent","time":0.25,"action":{"incrementTapped":{}},"fingerprint":"9f7c2e01a4b3d865"}
/// {"seq":2,"origin":"sent","time":0.5,"action":{"addTapped":{}},"fingerprint":"…","reads":{"uuid":["…"]}}
/// ```
///
/// To record those values, the recorder wraps the store's `\.uuid`, `\.date`, `\.withRandomNumberGenerator` and
/// clocks (what they give is unchanged). A state that holds `@Shared` values is written with the values of its step.
///
/// Recording stays off the send path's critical costs: each action is copied into an in-memory buffer under
/// the store's existing lock; a dedicated thread encodes and writes it. Up to 64 Ki actions may wait for the
/// writer; past that, sending waits for it rather than dropping actions. `flush()` and `close()` write
/// everything reduced before they were called; releasing the store also writes what is left and closes the
/// file. Secrets never reach the file: mark them with ``Redacted`` or ``ActionLogRedacting``.
public final class ActionRecorder: Sendable {
  /// The log file.
  public let fileURL: URL

  private let feature: String?
  private let fingerprints: Bool
  private let states: Bool
  private let flushInterval: Duration
  private let maximumPending: Int
  private let storage: LockIsolated<Storage>

  private struct Storage {
    var file: ActionLogFile?
    var session: (any AnyRecordingSession)?
  }

  /// Creates the log file at `fileURL`, readable by its owner only; an existing file is replaced only when
  /// `replacingExistingFile` says so (the default), else the call fails with ``ActionLogError/fileExists(path:)``.
  ///
  /// - Parameters:
  ///   - fileURL: The log file to create.
  ///   - replacingExistingFile: Whether a file already at `fileURL` is truncated and overwritten. With `false` the
  ///     file is created exclusively (`O_EXCL`): a file that appears between a host's own check and this call is
  ///     never overwritten.
  ///   - feature: The name written in the log's header, which replay tools use to pick the reducer; the
  ///     reducer's type name by default.
  ///   - fingerprints: Whether each line carries the fingerprint of the state after its action (replay then
  ///     finds the first step where a changed reducer diverges). Fingerprints keep a copy of the state per
  ///     buffered action: with large collections in the state, the first mutation after each copy pays for
  ///     copying them.
  ///   - states: Whether each line also carries the whole state after its action, so replaying against a changed
  ///     reducer shows how the replayed state differs from the recorded one at the first divergence
  ///     (``ActionLogDivergence/recordedStateDiff``). The log grows with the state's size, and the writer encodes
  ///     every state.
  ///   - flushInterval: How long recorded actions may wait in memory before the writer collects them if no
  ///     buffer fills first.
  public convenience init(
    fileURL: URL, replacingExistingFile: Bool = true, feature: String? = nil, fingerprints: Bool = true,
    states: Bool = false, flushInterval: Duration = .seconds(1)
  ) throws(ActionLogError) {
    try self.init(
      fileURL: fileURL, replacingExistingFile: replacingExistingFile, feature: feature, fingerprints: fingerprints,
      states: states, flushInterval: flushInterval, maximumPending: RecordingSession<Int, Int>.defaultMaximumPending)
  }

  /// A recorder whose sender waits for the writer once `maximumPending` actions are buffered.
  init(
    fileURL: URL, replacingExistingFile: Bool = true, feature: String?, fingerprints: Bool, states: Bool = false,
    flushInterval: Duration, maximumPending: Int
  ) throws(ActionLogError) {
    self.fileURL = fileURL
    self.maximumPending = maximumPending
    self.feature = feature
    self.fingerprints = fingerprints
    self.states = states
    self.flushInterval = flushInterval
    storage = LockIsolated(
      Storage(file: try ActionLogFile(url: fileURL, replacing: replacingExistingFile), session: nil))
  }

  /// Writes every action reduced before this call to the file.
  public func flush() async throws(ActionLogError) {
    guard let session = storage.withLock({ $0.session }) else { return }
    try await session.flush()
  }

  /// Writes every action reduced before this call, then closes the file. Actions reduced afterwards are not
  /// recorded (and reported as a runtime issue).
  public func close() async throws(ActionLogError) {
    let (session, file) = storage.withLock { storage in
      defer { storage.file = nil }
      return (storage.session, storage.file)
    }
    if let session {
      try await session.close()
    } else if let error = file?.close() {
      throw error
    }
  }

  /// The number of action lines written to the file so far.
  public var writtenCount: Int {
    storage.withLock { $0.session }?.writtenCount ?? 0
  }

  /// How often a send waited for the writer because the buffer was full.
  var backPressureWaitCount: Int {
    storage.withLock { $0.session }?.backPressureWaitCount ?? 0
  }

  /// Stops (`true`) or restarts the writer thread, for tests of back-pressure. Call after the store started.
  func setWriterHeld(_ held: Bool) {
    storage.withLock { $0.session }?.setWriterHeld(held)
  }

  /// Blocks until a send has waited for the writer because the buffer was full; `false` if none did within
  /// `timeout` (a bound for a broken build, not a pace).
  func waitForBackPressure(timeout: Duration) -> Bool {
    waitForWriter(timeout: timeout) { $0.backPressureWaits > 0 }
  }

  /// Blocks until `condition` holds for the recording's progress; `false` if it did not within `timeout` (a bound for
  /// a broken build, not a pace) or nothing is recorded. Call after the store started.
  func waitForWriter(timeout: Duration, until condition: (RecordingProgress) -> Bool) -> Bool {
    storage.withLock { $0.session }?.waitForWriter(timeout: timeout, until: condition) ?? false
  }

  /// The feature name a recording of `reducer` gets when none is given: the reducer's type name without its
  /// module (`TimerCounter`, `AppFeature.Child`).
  public static func defaultFeatureName<R: Reducer>(for reducer: R.Type) -> String {
    typeName(reducer)
  }

  /// The instrument that records a store of `reducer`'s type to this recorder's file, for
  /// `Store.init(initialState:instruments:reducer:withDependencies:)` next to other instruments. One store per
  /// recorder.
  ///
  /// ```swift
  /// let store = Store(initialState: Counter.State(), instruments: [recorder.instrument(for: Counter.self), tracer]) {
  ///   Counter()
  /// }
  /// ```
  @inlinable
  public func instrument<R: Reducer>(for reducer: R.Type) -> any StoreInstrument<R.State, R.Action>
  where R.State: Encodable, R.Action: Encodable {
    // The copy into the buffer is made here, where the feature's types are concrete: specialized moves instead of
    // the recorder's generic code going through the types' value witnesses.
    RecordingInstrument<R.State, R.Action>(recorder: self) { actions, states, index, action, state in
      actions.assumingMemoryBound(to: R.Action.self).advanced(by: index).initialize(to: action)
      states?.assumingMemoryBound(to: R.State.self).advanced(by: index).initialize(to: state.value)
    }
  }

  /// Starts recording a store: writes the header and returns the session its instrument appends to.
  func attach<State: Encodable, Action: Encodable & Sendable>(
    initialState: State, dependencies: DependencyValues, defaultFeature: String, tape: DependencyReadTape,
    copy: @escaping RecordingSession<State, Action>.Copy
  ) throws(ActionLogError) -> RecordingSession<State, Action> {
    let available = storage.withLock { storage -> ActionLogFile? in
      guard storage.session == nil, let file = storage.file else { return nil }
      storage.file = nil
      return file
    }
    guard let file = available else { throw .alreadyRecording }
    let stateBytes: [UInt8]
    let fingerprint: ActionLogFingerprint?
    do {
      stateBytes = try CanonicalJSONEncoder.encode(initialState)
      fingerprint = fingerprints ? try ActionLogFingerprint(of: initialState) : nil
    } catch {
      throw .encodingFailed(reason: "the initial state (\(typeName(State.self))): \(ActionLogDecoding.reason(error))")
    }
    let header = ActionLogFormat.header(
      feature: feature ?? defaultFeature, initialState: stateBytes, fingerprint: fingerprint)
    if let error = file.write(header) { throw error }
    let session = RecordingSession<State, Action>(
      file: file, clock: unwrapped(dependencies.clock), fingerprints: fingerprints, states: states,
      flushInterval: flushInterval, issueReporter: dependencies.issueReporter, maximumPending: maximumPending,
      tape: tape, copy: copy)
    storage.withLock { $0.session = session }
    return session
  }
}

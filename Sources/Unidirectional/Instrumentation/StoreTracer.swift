import Foundation

/// Writes what stores do as a timeline: a Chrome Trace Event file (JSON) that Perfetto (`ui.perfetto.dev`) and
/// `chrome://tracing` open.
///
/// ```swift
/// let tracer = try StoreTracer(fileURL: URL(fileURLWithPath: "run.trace.json"))
/// let store = Store(initialState: Counter.State(), instruments: [tracer.instrument(for: Counter.self)]) {
///   Counter()
/// }
/// // … run …
/// try tracer.close()   // writes what is pending, ends the effects still running, closes the file
/// ```
///
/// Each store is a process in the timeline with one track (thread) for its actions — one slice per action, named
/// after it, as long as its reducer ran, with its sequence number, origin and full description as arguments — and
/// one track per effect, from its start to its end, named after the action that started it, with a `cancelled`
/// mark where it was cancelled. Times are real (``InstrumentationClock``), in microseconds since the tracer was
/// created. The events, and where their names are defined: <doc:SeeingARunningStore#The-trace-format>.
///
/// Cost: the instrument measures every reducer (two clock readings) and queues each event with the store's lock it
/// already holds; formatting and writing happen on a background queue, in batches: a batch is drained 10 ms after
/// its first event (so the file lags the store by as much), or at once by ``flush()`` and ``close()``. At most
/// 100,000 events wait per store; past that events are dropped and counted in the trace (`dropped events` on the
/// store's actions track).
public final class StoreTracer: Sendable {
  /// The trace file.
  public let fileURL: URL
  /// When the trace starts, in ``InstrumentationClock`` nanoseconds.
  let origin: UInt64
  private let state: LockIsolated<WriterState>

  private struct WriterState {
    var file: FileHandle?
    var wroteEvent = false
    var nextStore = 1
    var stores: [any TracedStore] = []
    var failure: StoreTraceError?
  }

  /// Creates (or truncates) the trace file at `fileURL`.
  public init(fileURL: URL) throws(StoreTraceError) {
    self.fileURL = fileURL
    origin = InstrumentationClock.nanoseconds
    guard FileManager.default.createFile(atPath: fileURL.path, contents: Data(TraceFormat.opening.utf8)),
      let file = FileHandle(forWritingAtPath: fileURL.path)
    else {
      throw .cannotOpen(path: fileURL.path, reason: "the file cannot be created")
    }
    _ = try? file.seekToEnd()
    state = LockIsolated(WriterState(file: file))
  }

  /// The instrument that traces a store of `reducer`'s type, named after it: one per store, all writing to this
  /// tracer's file.
  ///
  /// ```swift
  /// Store(initialState: Counter.State(), instruments: [tracer.instrument(for: Counter.self)]) { Counter() }
  /// ```
  @inlinable
  public func instrument<R: Reducer>(for reducer: R.Type) -> any StoreInstrument<R.State, R.Action> {
    let events: TraceEvents<R.Action> = newStoreEvents(for: reducer)
    let instrument = TraceInstrument<R.State, R.Action>(
      events: events,
      appendAction: { action, reduction, _ in events.append(.action(action, reduction)) },
      appendEffect: { event in events.append(.effect(event)) })
    register(instrument)
    return instrument
  }

  /// ``instrument(for:)`` that also records, on each action, the state after it (as `customDump` prints it) and
  /// what the action changed (as the `TestStore` prints a diff): a trace the inspector opens alone, as an action log
  /// with its effect timeline (`InspectorTraceModel`). Dumping every state under the store's lock costs as much as
  /// printing every change does: for short runs — a test's, a failing explored schedule's — not for a live app.
  ///
  /// ```swift
  /// Store(initialState: Counter.State(), instruments: [tracer.instrument(for: Counter.self, recordingStates: true)]) {
  ///   Counter()
  /// }
  /// ```
  @inlinable
  public func instrument<R: Reducer>(for reducer: R.Type, recordingStates: Bool) -> any StoreInstrument<
    R.State, R.Action
  > {
    guard recordingStates else { return instrument(for: reducer) }
    let events: TraceEvents<R.Action> = newStoreEvents(for: reducer)
    let states = TracedStates<R.State>()
    let instrument = TraceInstrument<R.State, R.Action>(
      events: events,
      appendAction: { action, reduction, state in
        events.append(.actionAndState(action, reduction, states.trace(state.value)))
      },
      appendEffect: { event in events.append(.effect(event)) })
    register(instrument)
    return instrument
  }

  /// The event queue of the next store traced, named after `reducer`.
  @usableFromInline
  func newStoreEvents<Action: Sendable>(for reducer: Any.Type) -> TraceEvents<Action> {
    let number = state.withLock { state in
      defer { state.nextStore += 1 }
      return state.nextStore
    }
    var format = TraceFormat(process: number, origin: origin)
    let name = typeName(reducer)
    return TraceEvents(limit: 100_000) { [weak self] items, dropped in
      var lines: [String] = []
      for item in items {
        switch item {
        case .start: format.start(name: name, into: &lines)
        case let .action(action, reduction): format.action(describe(action), reduction, into: &lines)
        case let .actionAndState(action, reduction, state):
          format.action(describe(action), reduction, state: state, into: &lines)
        case let .effect(event): format.effect(event, into: &lines)
        case let .finish(time): format.finishRunningEffects(at: time, into: &lines)
        }
      }
      if dropped > 0 { format.dropped(dropped, at: InstrumentationClock.nanoseconds, into: &lines) }
      self?.write(lines)
    }
  }

  @usableFromInline
  func register(_ store: any TracedStore) {
    state.withLock { $0.stores.append(store) }
  }

  /// Returns once every event observed before the call is in the file. Not from inside a traced store's reducer or
  /// instrument (they run with the store's lock held, which the tracer takes to collect its events).
  public func flush() throws(StoreTraceError) {
    for store in state.withLock({ $0.stores }) { store.flush() }
    if let failure = state.value.failure { throw failure }
  }

  /// Writes every pending event, ends the effects still running at this moment (marked `unfinished`), and closes
  /// the file. Events after it are ignored.
  public func close() throws(StoreTraceError) {
    let now = InstrumentationClock.nanoseconds
    for store in state.withLock({ $0.stores }) { store.finish(at: now) }
    let failure: StoreTraceError? = state.withLock { state in
      guard let file = state.file else { return state.failure }
      defer {
        state.file = nil
        state.stores = []
      }
      do {
        try file.write(contentsOf: Data(TraceFormat.closing.utf8))
        try file.close()
      } catch {
        state.failure = state.failure ?? .cannotWrite(path: fileURL.path, reason: "\(error)")
      }
      return state.failure
    }
    if let failure { throw failure }
  }

  /// Appends formatted events (each a JSON object) to the file.
  func write(_ events: [String]) {
    guard !events.isEmpty else { return }
    state.withLock { state in
      guard let file = state.file, state.failure == nil else { return }
      var text = ""
      for event in events {
        text += state.wroteEvent ? TraceFormat.separator : ""
        text += event
        state.wroteEvent = true
      }
      do {
        try file.write(contentsOf: Data(text.utf8))
      } catch {
        state.failure = .cannotWrite(path: fileURL.path, reason: "\(error)")
      }
    }
  }
}

/// Why a ``StoreTracer`` could not write its file.
///
/// ```swift
/// do { try tracer.close() } catch { print(error) }   // "cannot write trace /tmp/run.json: …"
/// ```
public enum StoreTraceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The trace file could not be created.
  case cannotOpen(path: String, reason: String)
  /// Writing the trace failed; events after the failure are not in the file.
  case cannotWrite(path: String, reason: String)

  /// What went wrong.
  public var description: String {
    switch self {
    case let .cannotOpen(path, reason): "cannot open trace \(path): \(reason)"
    case let .cannotWrite(path, reason): "cannot write trace \(path): \(reason)"
    }
  }
}

/// What a tracer needs from each store's instrument, whatever its types.
@usableFromInline
protocol TracedStore: AnyObject, Sendable {
  func flush()
  func finish(at time: UInt64)
}

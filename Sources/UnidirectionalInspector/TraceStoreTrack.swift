import Unidirectional

/// One store's events in a ``StoreTracer`` trace (one trace process): its actions with their sequence numbers and
/// times, and its effects, turned into ``InspectorEffect``s aligned with the steps.
///
/// The tracer writes an effect's slice when it ends (or when the trace is closed, marked `unfinished`); an effect
/// named in the trace (its track's `thread_name`) but without a slice was still running when the file was cut
/// short: it was started by the action written just before its name (the tracer writes in the order things
/// happen).
///
/// ```swift
/// var track = TraceStoreTrack()
/// try track.add(event)                  // each event of the store's process
/// let effects = track.effects()
/// ```
struct TraceStoreTrack {
  private typealias Phase = TraceSchema.Phase
  private typealias Category = TraceSchema.Category
  private typealias Metadata = TraceSchema.Metadata
  private typealias Name = TraceSchema.Name

  private struct Action {
    let sequence: UInt64
    let time: Double
  }

  private struct Effect {
    var name: String
    var startedBy: UInt64?
    var start: Double?
    var end: Double?
    var cancelledAt: Double?
    var cancelled = false
    var unfinished = false
  }

  /// An action as the inspector shows a trace opened alone: where its texts are in the file.
  struct Step: Sendable {
    let sequence: UInt64
    let time: Double
    let name, origin, action, state, diff: TraceEvent.Text?
  }

  /// The store's name (`process_name`).
  private(set) var name: String?
  /// Whether ``steps`` are kept.
  var keepsSteps = false
  /// Every action, in the order written, when ``keepsSteps``.
  private(set) var steps: [Step] = []

  init(keepsSteps: Bool = false) {
    self.keepsSteps = keepsSteps
  }
  /// Actions, in the order written.
  private var actions: [Action] = []
  /// The effect that fed back each received action, by sequence.
  private var causes: [UInt64: UInt64] = [:]
  private var effectsByID: [UInt64: Effect] = [:]
  private var order: [UInt64] = []

  /// How many actions it has.
  var actionCount: Int { actions.count }
  /// How many effects it has.
  var effectCount: Int { order.count }
  /// The largest action sequence number.
  private(set) var lastSequence: UInt64 = 0
  /// How many events the tracer dropped, falling behind (its `dropped events` instants).
  private(set) var droppedEvents: UInt64 = 0

  /// Takes in one event of this store's process; ignores events that are not the tracer's.
  mutating func add(_ event: TraceEvent) {
    guard let phase = event.phase else { return }
    if event.is(phase, Phase.complete) {
      guard let time = event.time else { return }
      if event.is(event.category, Category.action) {
        guard let sequence = event.sequence else { return }
        actions.append(Action(sequence: sequence, time: time))
        if keepsSteps {
          steps.append(
            Step(
              sequence: sequence, time: time, name: event.name, origin: event.origin, action: event.action,
              state: event.state, diff: event.diff))
        }
        lastSequence = max(lastSequence, sequence)
        if let cause = event.effect { causes[sequence] = cause }
      } else if event.is(event.category, Category.effect), let thread = event.effectThread {
        if effectsByID[thread] == nil { order.append(thread) }
        var effect = effectsByID[thread] ?? Effect(name: Self.name(event.text(event.name), or: thread))
        effect.startedBy = event.startedBy ?? effect.startedBy
        effect.start = time
        effect.cancelled = effect.cancelled || event.cancelled
        effect.unfinished = event.unfinished
        effect.end = event.unfinished ? nil : time + max(0, event.duration ?? 0)
        effectsByID[thread] = effect
      }
    } else if event.is(phase, Phase.metadata) {
      if event.is(event.name, Metadata.processName) {
        name = event.text(event.argumentName).map { String($0.prefix(200)) } ?? name
      } else if event.is(event.name, Metadata.threadName), let thread = event.effectThread, effectsByID[thread] == nil {
        // Named when it started; started by the action written just before.
        effectsByID[thread] = Effect(
          name: Self.name(event.text(event.argumentName), or: thread), startedBy: actions.last?.sequence,
          start: actions.last?.time)
        order.append(thread)
      }
    } else if event.is(phase, Phase.instant) {
      if event.is(event.name, Name.cancelled), event.is(event.category, Category.effect),
        let thread = event.effectThread, let time = event.time
      {
        effectsByID[thread]?.cancelled = true
        effectsByID[thread]?.cancelledAt = time
      } else if event.is(event.name, Name.droppedEvents), event.is(event.category, Category.tracer) {
        droppedEvents &+= event.count ?? 0
      }
    }
  }

  /// A name of at most 200 characters.
  private static func name(_ text: String?, or thread: UInt64) -> String {
    guard let text else { return "effect \(thread)" }
    // Counted in bytes first: most names are short, and characters never outnumber bytes.
    return text.utf8.count <= 200 ? text : String(text.prefix(200))
  }

  /// The effects, with the steps they ran through; `skipped` counts the ones no step can be found for.
  func effects() -> (effects: [InspectorEffect], skipped: Int) {
    // Step at a time: the last action whose reducer started by then.
    let inOrder = zip(actions, actions.dropFirst()).allSatisfy { ($0.time, $0.sequence) <= ($1.time, $1.sequence) }
    let byTime = inOrder ? actions : actions.sorted { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
    func step(at time: Double) -> Int? {
      var low = 0
      var high = byTime.count
      while low < high {
        let middle = (low + high) / 2
        if byTime[middle].time <= time { low = middle + 1 } else { high = middle }
      }
      return low > 0 ? Int(clamping: byTime[low - 1].sequence) : nil
    }
    var result: [InspectorEffect] = []
    result.reserveCapacity(order.count)
    var skipped = 0
    for id in order {
      guard let effect = effectsByID[id], let startedBy = effect.startedBy, let start = effect.start else {
        skipped += 1
        continue
      }
      let first = Int(clamping: startedBy)
      let end = effect.end
      // The page shows the id itself: the name without the tracer's `effect 3 · ` before the action's.
      let name = TraceSchema.actionName(inEffectName: effect.name, effect: id) ?? effect.name
      result.append(
        InspectorEffect(
          id: id, startedBy: first, parent: causes[startedBy], name: name,
          endStep: end.map { max(first, step(at: $0) ?? first) }, cancelled: effect.cancelled,
          cancelStep: effect.cancelledAt.map { max(first, step(at: $0) ?? first) }, start: start / 1e6,
          duration: end.map { max(0, $0 - start) / 1e6 }))
    }
    return (result, skipped)
  }
}

extension TraceEvent {
  /// The thread of an effect (`tid`), or `nil` for the actions thread and events without one.
  fileprivate var effectThread: UInt64? {
    guard let thread, thread != UInt64(TraceSchema.actionsThread) else { return nil }
    return thread
  }
}

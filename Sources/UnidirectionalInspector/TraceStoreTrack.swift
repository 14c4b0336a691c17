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

  /// The store's name (`process_name`).
  private(set) var name: String?
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

  /// Takes in one event of this store's process; ignores events that are not the tracer's.
  mutating func add(_ event: [String: TraceEventReader.Value]) {
    let phase = event["ph"]?.string
    let arguments = event["args"]
    let thread = event["tid"]?.count
    let time = event["ts"]?.number
    switch (phase, event["name"]?.string, event["cat"]?.string) {
    case ("M", "process_name", _):
      name = arguments?["name"]?.string.map { String($0.prefix(200)) } ?? name
    case ("M", "thread_name", _) where (thread ?? 0) > 0:
      guard let thread, effectsByID[thread] == nil else { return }
      let name = arguments?["name"]?.string ?? "effect \(thread)"
      effectsByID[thread] = Effect(
        name: String(name.prefix(200)), startedBy: actions.last?.sequence, start: actions.last?.time)
      order.append(thread)
    case ("X", _, "action"):
      guard let sequence = arguments?["sequence"]?.count, let time else { return }
      actions.append(Action(sequence: sequence, time: time))
      lastSequence = max(lastSequence, sequence)
      if let cause = arguments?["effect"]?.count { causes[sequence] = cause }
    case let ("X", name, "effect"):
      guard let thread, thread > 0, let time else { return }
      if effectsByID[thread] == nil { order.append(thread) }
      var effect = effectsByID[thread] ?? Effect(name: String((name ?? "effect \(thread)").prefix(200)))
      effect.startedBy = arguments?["startedBy"]?.count ?? effect.startedBy
      effect.start = time
      effect.cancelled = effect.cancelled || arguments?["cancelled"] == .bool(true)
      effect.unfinished = arguments?["unfinished"] == .bool(true)
      effect.end = effect.unfinished ? nil : time + max(0, event["dur"]?.number ?? 0)
      effectsByID[thread] = effect
    case ("i", "cancelled", "effect"):
      guard let thread, let time else { return }
      effectsByID[thread]?.cancelled = true
      effectsByID[thread]?.cancelledAt = time
    default:
      return
    }
  }

  /// The effects, with the steps they ran through; `skipped` counts the ones no step can be found for.
  func effects() -> (effects: [InspectorEffect], skipped: Int) {
    // Step at a time: the last action whose reducer started by then.
    let byTime = actions.sorted { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
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
      // The tracer names a track `effect 3 · .start`: the page shows the id itself.
      let prefix = "effect \(id) · "
      let name = effect.name.hasPrefix(prefix) ? String(effect.name.dropFirst(prefix.count)) : effect.name
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

import Foundation
import Unidirectional

/// A running store as the inspector shows it: the steps and effect events its ``InspectorInstrument`` hands over,
/// kept in a bounded history (the steps rendered — state, diff — only when the page asks for one) and an effect
/// timeline (``InspectorLiveEffects``).
///
/// The store's send path only appends to the instrument's bounded buffer; a thread of the inspector collects the
/// buffer every ``collectInterval`` and wakes the pages' event streams. A full buffer drops actions and counts
/// them (the page shows the count); history past ``historyLimit`` steps forgets the oldest.
///
/// ```swift
/// let live = InspectorLive(feature: "Counter")
/// let server = try InspectorServer(model: live)
/// let store = Store(initialState: Counter.State(), instruments: [live.instrument(for: Counter.self)]) { Counter() }
/// ```
public final class InspectorLive: InspectorModel, @unchecked Sendable {
  /// One step of the run, its rendering deferred.
  struct Step: Sendable {
    let summary: InspectorStepSummary
    let render: @Sendable () -> (action: String, state: String, diff: String?)
  }

  /// An effect event and the step it happened at (the last action reduced by then).
  struct EffectRecord: Sendable {
    let event: EffectEvent
    let step: UInt64
  }

  /// What one collection took from an instrument: steps and effect events, how many of each were dropped, and when
  /// (seconds since the run started).
  struct Taken {
    let steps: [Step]
    let dropped: Int
    let effects: [EffectRecord]
    let effectsDropped: Int
    let time: Double
  }

  /// How often the buffer is collected.
  static let collectInterval: Duration = .milliseconds(20)

  /// The most steps kept for the page.
  public let historyLimit: Int
  package var live: InspectorLive? { self }

  private let condition = NSCondition()
  /// Held through a whole `collect()`: two at once (the background collector and a caller) could otherwise return
  /// before the other has added what it took, and a caller would not see events sent before its call.
  private let collecting = NSLock()
  // Guarded by `condition`.
  private var history: [Step] = []
  /// Rows forgotten from the front of the history (the list's positions count them).
  private var forgotten = 0
  private var initial: (@Sendable () -> String)?
  private var sources: [any InspectorStepSource] = []
  private var dropped = 0
  private var effectTimeline: InspectorLiveEffects
  private var ended = false
  private var isCollecting = false
  private var feature: String
  private var openStreams = 0

  /// A live model named after `feature`, keeping the last `historyLimit` steps.
  public init(feature: String, historyLimit: Int = 100_000) {
    self.feature = feature
    self.historyLimit = historyLimit
    effectTimeline = InspectorLiveEffects(limit: historyLimit)
  }

  /// An instrument to install on the store; its steps appear here.
  @inlinable
  public func instrument<R: Reducer>(for reducer: R.Type, bufferLimit: Int = 4_096) -> InspectorInstrument<
    R.State, R.Action
  > where R.State: Sendable {
    // The step buffer is made here, where the feature's types are concrete: its copies are specialized.
    register(InspectorInstrument(live: self, steps: StepBuffer(capacity: bufferLimit)), feature: typeName(R.self))
  }

  @usableFromInline
  func register<State, Action>(_ instrument: InspectorInstrument<State, Action>, feature name: String)
    -> InspectorInstrument<State, Action>
  {
    condition.withLock {
      if sources.isEmpty { feature = name }
      sources.append(instrument)
      if !isCollecting {
        isCollecting = true
        let thread = Thread { [weak self] in self?.collectWhileRunning() }
        thread.name = "UnidirectionalInspector.collect"
        thread.start()
      }
    }
    return instrument
  }

  package func info() -> InspectorInfo {
    condition.withLock {
      InspectorInfo(
        mode: "live", feature: feature, stepCount: history.last?.summary.n ?? 0, firstDivergence: nil,
        dropped: dropped, ended: ended,
        timeline: InspectorTimelineInfo(
          source: "live", effectCount: effectTimeline.count,
          notes: effectTimeline.dropped > 0
            ? ["\(effectTimeline.dropped) effect events dropped (the inspector fell behind)"] : [],
          error: nil))
    }
  }

  package func effects(from first: Int, to last: Int, offset: Int, count: Int) -> InspectorEffectPage {
    condition.withLock { effectTimeline.page(from: first, to: last, offset: offset, count: count) }
  }

  package func steps(from: Int, count: Int, filter: String?) -> InspectorStepPage {
    // A negative count or offset would trap in `prefix`/`dropFirst`.
    let (from, count) = (max(0, from), max(0, count))
    return condition.withLock {
      let kept = history.lazy.map(\.summary)
      guard let filter = filter?.lowercased() else {
        let start = max(0, from - forgotten)
        let rows = Array(kept.dropFirst(start).prefix(count))
        return InspectorStepPage(steps: rows, total: forgotten + history.count)
      }
      let matches = kept.filter { $0.name.lowercased().contains(filter) }
      return InspectorStepPage(steps: Array(matches.dropFirst(from).prefix(count)), total: matches.count)
    }
  }

  package func step(_ number: Int) throws(InspectorError) -> InspectorStepDetail {
    let found: Step?
    let initial: (@Sendable () -> String)?
    (found, initial) = condition.withLock { (kept(number), self.initial) }
    if number == 0, let initial {
      return InspectorStepDetail(
        n: 0, name: "", action: "", origin: "", time: 0, state: initial(), diff: nil, matchesRecording: nil,
        recorded: nil)
    }
    guard let found else { throw .noSuchStep(number) }
    let rendered = found.render()
    let summary = found.summary
    return InspectorStepDetail(
      n: summary.n, name: summary.name, action: rendered.action, origin: summary.origin, time: summary.time,
      state: rendered.state, diff: rendered.diff, matchesRecording: nil, recorded: nil)
  }

  /// Step `number`, if kept. Call with `condition` held.
  private func kept(_ number: Int) -> Step? {
    // Step numbers grow along the history (with gaps where actions were dropped).
    var low = 0
    var high = history.count
    while low < high {
      let middle = (low + high) / 2
      if history[middle].summary.n < number { low = middle + 1 } else { high = middle }
    }
    return low < history.count && history[low].summary.n == number ? history[low] : nil
  }

  /// What the live page's event stream sends next (``steps(after:effectsVersion:waitingUpTo:)``), as the `steps`
  /// event's JSON.
  struct Batch: Encodable {
    /// The position of the first row.
    let from: Int
    let steps: [InspectorStepSummary]
    /// How many rows there are.
    let total: Int
    let dropped: Int
    /// The run ended (and, as the stream sends it, this is its last event).
    var ended: Bool
    /// The effect timeline's version.
    let effects: Int
    /// The effects that changed since the version asked about (`nil`: too many, the page asks for its window).
    let changed: [InspectorEffect]?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(from, forKey: .from)
      try container.encode(steps, forKey: .steps)
      try container.encode(total, forKey: .total)
      try container.encode(dropped, forKey: .dropped)
      try container.encode(ended, forKey: .ended)
      try container.encode(effects, forKey: .effects)
      // `null`, not left out: the page tells "ask again" from "nothing changed" ([]).
      try container.encode(changed, forKey: .changed)
    }

    private enum CodingKeys: String, CodingKey { case from, steps, total, dropped, ended, effects, changed }
  }

  /// The rows after the first `position`, waiting up to `timeout` for one or for the effect timeline to move past
  /// `effectsVersion`.
  func steps(after position: Int, effectsVersion: Int, waitingUpTo timeout: Duration) -> Batch {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date().addingTimeInterval(Self.timeInterval(timeout))
    while forgotten + history.count <= position, effectTimeline.version == effectsVersion, !ended,
      condition.wait(until: deadline)
    {}
    let start = max(0, position - forgotten)
    let rows = history.dropFirst(start).prefix(InspectorRouter.pageLimit).map(\.summary)
    let changed = effectTimeline.changes(after: effectsVersion)
    return Batch(
      from: forgotten + start, steps: Array(rows), total: forgotten + history.count, dropped: dropped, ended: ended,
      effects: effectTimeline.version, changed: (changed?.count ?? 0) > InspectorRouter.pageLimit ? nil : changed)
  }

  func started(initialState render: @escaping @Sendable () -> String) {
    condition.withLock { initial = render }
  }

  /// Collects the sources once more and marks the run ended.
  func storeDidEnd() {
    collect()
    condition.withLock {
      ended = true
      condition.broadcast()
    }
  }

  /// Marks the run ended (the host is about to exit) and waits up to `timeout` for the pages' event streams to
  /// deliver every step and the end.
  public func endRun(waitingForPagesUpTo timeout: Duration) {
    storeDidEnd()
    let deadline = Date().addingTimeInterval(Self.timeInterval(timeout))
    condition.lock()
    while openStreams > 0, condition.wait(until: deadline) {}
    condition.unlock()
  }

  /// An event stream started; ``streamEnded()`` when it stops.
  func streamStarted() {
    condition.withLock { openStreams += 1 }
  }

  func streamEnded() {
    condition.withLock {
      openStreams -= 1
      condition.broadcast()
    }
  }

  private func collectWhileRunning() {
    while condition.withLock({ !ended }) {
      Thread.sleep(forTimeInterval: Self.timeInterval(Self.collectInterval))
      collect()
    }
  }

  /// Takes what the instruments collected into the history and the effect timeline (every ``collectInterval`` in the
  /// background; a test calls it to take everything sent so far at once).
  package func collect() {
    collecting.lock()
    defer { collecting.unlock() }
    let sources = condition.withLock { self.sources }
    let taken = sources.map { $0.take() }
    guard taken.contains(where: { !$0.steps.isEmpty || $0.dropped > 0 || !$0.effects.isEmpty || $0.effectsDropped > 0 })
    else { return }
    condition.withLock {
      for batch in taken {
        history += batch.steps
        dropped += batch.dropped
        for record in batch.effects {
          effectTimeline.apply(record, time: batch.time) { kept($0)?.summary.name ?? "" }
        }
        effectTimeline.addDropped(batch.effectsDropped)
      }
      if history.count > historyLimit {
        let excess = history.count - historyLimit
        history.removeFirst(excess)
        forgotten += excess
      }
      condition.broadcast()
    }
  }

  private static func timeInterval(_ duration: Duration) -> TimeInterval {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}

/// What ``InspectorLive`` collects steps and effect events from.
protocol InspectorStepSource: AnyObject, Sendable {
  /// The steps and effect events since the last call, and how many were dropped meanwhile.
  func take() -> InspectorLive.Taken
}

import Foundation
import Unidirectional

/// A running store as the inspector shows it: the steps its ``InspectorObserver`` hands over, kept in a bounded
/// history, rendered (state, diff) only when the page asks for one.
///
/// The store's send path only appends to the observer's bounded buffer; a thread of the inspector collects the
/// buffer every ``collectInterval`` and wakes the pages' event streams. A full buffer drops actions and counts
/// them (``InspectorInfo/dropped``); history past ``historyLimit`` steps forgets the oldest.
///
/// ```swift
/// let live = InspectorLive(feature: "Counter")
/// let server = try InspectorServer(model: live)
/// let store = Store(initialState: Counter.State(), observers: [live.observer(for: Counter.self)]) { Counter() }
/// ```
public final class InspectorLive: InspectorModel, @unchecked Sendable {
  /// One step of the run, its rendering deferred.
  struct Step: Sendable {
    let summary: InspectorStepSummary
    let render: @Sendable () -> (action: String, state: String, diff: String?)
  }

  /// How often the buffer is collected.
  static let collectInterval: Duration = .milliseconds(20)

  /// The most steps kept for the page.
  public let historyLimit: Int
  public var live: InspectorLive? { self }

  private let condition = NSCondition()
  // Guarded by `condition`.
  private var history: [Step] = []
  /// Rows forgotten from the front of the history (the list's positions count them).
  private var forgotten = 0
  private var initial: (@Sendable () -> String)?
  private var sources: [any InspectorStepSource] = []
  private var dropped = 0
  private var ended = false
  private var isCollecting = false
  private var feature: String
  private var openStreams = 0

  /// A live model named after `feature`, keeping the last `historyLimit` steps.
  public init(feature: String, historyLimit: Int = 100_000) {
    self.feature = feature
    self.historyLimit = historyLimit
  }

  /// An observer to install on the store; its steps appear here.
  public func observer<R: Reducer>(for reducer: R.Type, bufferLimit: Int = 4_096) -> InspectorObserver<
    R.State, R.Action
  > where R.State: Sendable {
    let observer = InspectorObserver<R.State, R.Action>(live: self, bufferLimit: bufferLimit)
    condition.withLock {
      if sources.isEmpty { feature = typeName(R.self) }
      sources.append(observer)
      if !isCollecting {
        isCollecting = true
        let thread = Thread { [weak self] in self?.collectWhileRunning() }
        thread.name = "UnidirectionalInspector.collect"
        thread.start()
      }
    }
    return observer
  }

  public func info() -> InspectorInfo {
    condition.withLock {
      InspectorInfo(
        mode: "live", feature: feature, stepCount: history.last?.summary.n ?? 0, firstDivergence: nil,
        dropped: dropped, ended: ended)
    }
  }

  public func steps(from: Int, count: Int, filter: String?) -> InspectorStepPage {
    condition.withLock {
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

  public func step(_ number: Int) throws(InspectorError) -> InspectorStepDetail {
    let found: Step?
    let initial: (@Sendable () -> String)?
    (found, initial) = condition.withLock {
      // Step numbers grow along the history (with gaps where actions were dropped).
      var low = 0
      var high = history.count
      while low < high {
        let middle = (low + high) / 2
        if history[middle].summary.n < number { low = middle + 1 } else { high = middle }
      }
      let hit = low < history.count && history[low].summary.n == number
      return (hit ? history[low] : nil, self.initial)
    }
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

  /// The rows after the first `position`, waiting up to `timeout` for one; with what was dropped, whether the run
  /// ended and how many rows there are.
  func steps(after position: Int, waitingUpTo timeout: Duration) -> (
    from: Int, steps: [InspectorStepSummary], dropped: Int, ended: Bool, total: Int
  ) {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date().addingTimeInterval(Self.timeInterval(timeout))
    while forgotten + history.count <= position, !ended, condition.wait(until: deadline) {}
    let start = max(0, position - forgotten)
    let rows = history.dropFirst(start).prefix(InspectorRouter.pageLimit).map(\.summary)
    return (forgotten + start, Array(rows), dropped, ended, forgotten + history.count)
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

  private func collect() {
    let sources = condition.withLock { self.sources }
    var steps: [Step] = []
    var droppedNow = 0
    for source in sources {
      let (taken, lost) = source.takeSteps()
      steps += taken
      droppedNow += lost
    }
    guard !steps.isEmpty || droppedNow > 0 else { return }
    condition.withLock {
      history += steps
      dropped += droppedNow
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

/// What ``InspectorLive`` collects steps from.
protocol InspectorStepSource: AnyObject, Sendable {
  /// The steps since the last call, and how many were dropped meanwhile.
  func takeSteps() -> ([InspectorLive.Step], Int)
}

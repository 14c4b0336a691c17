/// What an ``InspectorServer`` shows: a log (``InspectorLogModel``) or a running store (``InspectorLive``).
///
/// Every answer covers one step or one window of steps, so the page never loads a whole log.
///
/// ```swift
/// let info = model.info()                                  // feature, mode, step count
/// let first = try model.steps(from: 0, count: 100, filter: nil)
/// let detail = try model.step(1)                           // action, state, diff
/// let running = try model.effects(from: 1, to: 40, offset: 0, count: 100)   // the effect timeline's window
/// ```
package protocol InspectorModel: AnyObject, Sendable {
  /// The feature, the mode and how many steps there are now.
  func info() -> InspectorInfo
  /// Up to `count` step summaries from position `from` (a step number, or a position among the steps whose name
  /// contains `filter`, ignoring case).
  func steps(from: Int, count: Int, filter: String?) throws(InspectorError) -> InspectorStepPage
  /// Step `number` (0: the initial state): its action, the state after it and the diff it made.
  func step(_ number: Int) throws(InspectorError) -> InspectorStepDetail
  /// Up to `count` effects from position `offset` among those running at some step from `first` to `last`, when
  /// the model has an effect timeline (``InspectorInfo/timeline``).
  func effects(from first: Int, to last: Int, offset: Int, count: Int) throws(InspectorError) -> InspectorEffectPage
  /// The live feed, when the model shows a running store.
  var live: InspectorLive? { get }
}

extension InspectorModel {
  package var live: InspectorLive? { nil }

  /// No timeline: throws ``InspectorError/noTimeline``.
  package func effects(from first: Int, to last: Int, offset: Int, count: Int) throws(InspectorError)
    -> InspectorEffectPage
  {
    throw .noTimeline
  }
}

/// ``InspectorModel/info()``: what the page shows in its header.
package struct InspectorInfo: Encodable, Sendable, Equatable {
  /// `log`, `changed` (a log replayed through a changed reducer) or `live`.
  package var mode: String
  /// The feature's name (from the log's header, or the reducer's type).
  package var feature: String
  /// How many steps (actions) there are, not counting the initial state.
  package var stepCount: Int
  /// The first step whose replayed state differs from the recorded one (`changed`, and `log` once found).
  package var firstDivergence: Int?
  /// Live: actions the inspector skipped because its buffer was full.
  package var dropped: Int
  /// Live: the store has ended.
  package var ended: Bool
  /// The run's effect timeline (a trace given with the log, or the live store's effects), if it has one.
  package var timeline: InspectorTimelineInfo? = nil
}

/// One row of the step list.
package struct InspectorStepSummary: Encodable, Sendable, Equatable {
  /// The step number (1 for the first action).
  package var n: Int
  /// The action's name: its case path, e.g. `upload.progress`.
  package var name: String
  /// `sent` or `received`.
  package var origin: String
  /// Seconds since the run started.
  package var time: Double
}

/// A window of the step list.
package struct InspectorStepPage: Encodable, Sendable, Equatable {
  /// The rows.
  package var steps: [InspectorStepSummary]
  /// How many rows the whole (filtered) list has.
  package var total: Int
}

extension InspectorStepPage {
  /// The rows from position `from`, at most `count`, among `total` steps numbered from 1 — or, with `matches`, among
  /// the steps a filter kept — each made by `summary`. `from` and `count` come from the page's query: negative ones
  /// count as 0, and no sum of them may overflow (Int.max once killed the server).
  static func window<Step: BinaryInteger>(
    from: Int, count: Int, total: Int, matches: [Step]?, summary: (Int) -> InspectorStepSummary
  ) -> InspectorStepPage {
    let (from, count) = (max(0, from), max(0, count))
    guard let matches else {
      guard from < total, count > 0 else { return InspectorStepPage(steps: [], total: total) }
      let last = from + min(count, total - from)
      return InspectorStepPage(steps: (from + 1...last).map(summary), total: total)
    }
    return InspectorStepPage(
      steps: matches.dropFirst(from).prefix(count).map { summary(Int($0)) }, total: matches.count)
  }
}

/// One step in full.
package struct InspectorStepDetail: Encodable, Sendable, Equatable {
  /// The step number (0: the initial state).
  package var n: Int
  /// The action's name (empty for step 0).
  package var name: String
  /// The whole action, as `customDump` prints it (secrets redacted).
  package var action: String
  /// `sent`, `received` or empty for step 0.
  package var origin: String
  /// Seconds since the run started.
  package var time: Double
  /// The state after the step, as `customDump` prints it.
  package var state: String
  /// What the step changed: the diff the `TestStore` prints, or `nil` when it changed nothing.
  package var diff: String?
  /// Whether the replayed state matches the recorded fingerprint (`nil`: nothing to compare).
  package var matchesRecording: Bool?
  /// `changed` mode: the state the recorded reducer leaves, and how the changed reducer's state differs from it.
  package var recorded: InspectorRecordedState?
}

/// The recording's side of a step replayed through a changed reducer.
package struct InspectorRecordedState: Encodable, Sendable, Equatable {
  /// The state after the step as recorded (the original reducer's).
  package var state: String
  /// `-` recorded, `+` replayed through the changed reducer; `nil` when they render alike.
  package var diff: String?
}

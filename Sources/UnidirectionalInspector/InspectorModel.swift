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
public protocol InspectorModel: AnyObject, Sendable {
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
  public var live: InspectorLive? { nil }

  /// No timeline: throws ``InspectorError/noTimeline``.
  public func effects(from first: Int, to last: Int, offset: Int, count: Int) throws(InspectorError)
    -> InspectorEffectPage
  {
    throw .noTimeline
  }
}

/// ``InspectorModel/info()``: what the page shows in its header.
public struct InspectorInfo: Encodable, Sendable, Equatable {
  /// `log`, `changed` (a log replayed through a changed reducer) or `live`.
  public var mode: String
  /// The feature's name (from the log's header, or the reducer's type).
  public var feature: String
  /// How many steps (actions) there are, not counting the initial state.
  public var stepCount: Int
  /// The first step whose replayed state differs from the recorded one (`changed`, and `log` once found).
  public var firstDivergence: Int?
  /// Live: actions the inspector skipped because its buffer was full.
  public var dropped: Int
  /// Live: the store has ended.
  public var ended: Bool
  /// The run's effect timeline (a trace given with the log, or the live store's effects), if it has one.
  public var timeline: InspectorTimelineInfo? = nil
}

/// One row of the step list.
public struct InspectorStepSummary: Encodable, Sendable, Equatable {
  /// The step number (1 for the first action).
  public var n: Int
  /// The action's name: its case path, e.g. `upload.progress`.
  public var name: String
  /// `sent` or `received`.
  public var origin: String
  /// Seconds since the run started.
  public var time: Double
}

/// A window of the step list.
public struct InspectorStepPage: Encodable, Sendable, Equatable {
  /// The rows.
  public var steps: [InspectorStepSummary]
  /// How many rows the whole (filtered) list has.
  public var total: Int
}

/// One step in full.
public struct InspectorStepDetail: Encodable, Sendable, Equatable {
  /// The step number (0: the initial state).
  public var n: Int
  /// The action's name (empty for step 0).
  public var name: String
  /// The whole action, as `customDump` prints it (secrets redacted).
  public var action: String
  /// `sent`, `received` or empty for step 0.
  public var origin: String
  /// Seconds since the run started.
  public var time: Double
  /// The state after the step, as `customDump` prints it.
  public var state: String
  /// What the step changed: the diff the `TestStore` prints, or `nil` when it changed nothing.
  public var diff: String?
  /// Whether the replayed state matches the recorded fingerprint (`nil`: nothing to compare).
  public var matchesRecording: Bool?
  /// `changed` mode: the state the recorded reducer leaves, and how the changed reducer's state differs from it.
  public var recorded: InspectorRecordedState?
}

/// The recording's side of a step replayed through a changed reducer.
public struct InspectorRecordedState: Encodable, Sendable, Equatable {
  /// The state after the step as recorded (the original reducer's).
  public var state: String
  /// `-` recorded, `+` replayed through the changed reducer; `nil` when they render alike.
  public var diff: String?
}

/// One effect of the run as the inspector's timeline shows it: which step started it, and the steps it ran
/// through — from a trace (``InspectorTrace``) or a live store (``InspectorLive``).
///
/// Steps are the log's step numbers (the store's action sequence): an effect started by step 12 that finished
/// after step 15 and before step 16 spans steps 12 to 15.
///
/// ```swift
/// let page = try model.effects(from: 10, to: 20, offset: 0, count: 100)
/// for effect in page.effects { print(effect.id, effect.startedBy, effect.endStep ?? "running") }
/// ```
package struct InspectorEffect: Encodable, Sendable, Equatable {
  /// The effect's id in its store (counting up from 1).
  package var id: UInt64
  /// The step whose action started it.
  package var startedBy: Int
  /// The effect that fed back the action which started this one.
  package var parent: UInt64?
  /// The name of the action that started it (the trace's short name, or live, the action's case path).
  package var name: String
  /// The last step it was running at (the last action reduced before it ended); `nil` while it runs.
  package var endStep: Int?
  /// Whether it was cancelled.
  package var cancelled: Bool
  /// The step at which it was cancelled (the last action reduced before), if it was.
  package var cancelStep: Int?
  /// When it started, in seconds since the trace (or the live run) started.
  package var start: Double
  /// How long it ran, in seconds; `nil` while it runs.
  package var duration: Double?

  /// Whether it ran at none of the steps `first...last` (it started after them or ended before).
  func isOutside(_ first: Int, _ last: Int) -> Bool {
    startedBy > last || (endStep ?? Int.max) < first
  }
}

/// A window of the timeline: the effects running at some step from `from` to `to`, by start.
package struct InspectorEffectPage: Encodable, Sendable, Equatable {
  /// The first step of the window.
  package var from: Int
  /// The last step of the window.
  package var to: Int
  /// The effects, from position `offset` among those in the window.
  package var effects: [InspectorEffect]
  /// The position of the first of ``effects`` among all the effects in the window.
  package var offset: Int
  /// How many effects the window has in all.
  package var total: Int
}

/// What ``InspectorInfo/timeline`` says about the run's effect timeline.
package struct InspectorTimelineInfo: Encodable, Sendable, Equatable {
  /// Where it comes from: the trace file's name, or `live`.
  package var source: String
  /// How many effects it has (kept, live).
  package var effectCount: Int
  /// Something the page says about it: a trace cut short, several stores in one trace, a trace of another run.
  package var notes: [String]
  /// Why there is no timeline although one was asked for (a malformed trace): the log opens without it.
  package var error: String?
}

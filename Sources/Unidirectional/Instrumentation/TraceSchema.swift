/// The store trace's format, defined once: every name ``StoreTracer`` writes and the readers look for.
///
/// The writer is `TraceFormat` (here, in the core); the readers are the inspector's (`TraceEventReader` and
/// `TraceStoreTrack` in `UnidirectionalInspector`, which sees these `package` names) and `Scripts/trace_to_html.py`,
/// whose constants carry the same values. `Tests/Fixtures/every-event.trace.json` is a trace with every kind of event,
/// written by `TraceFormat`: `TraceFormatFixtureTests` checks that the writer still writes it byte for byte, and
/// each reader's test reads all of it (`InspectorTraceFixtureTests`, `Scripts/tests/test_trace_to_html.py`). The
/// format is described in the "Seeing a running store" article (its section "The trace format").
///
/// A trace is Chrome Trace Event JSON in the JSON Array Format. Each store is a process (`pid` 1, 2, … in the order
/// the stores were traced); its actions are thread ``actionsThread`` and each effect is the thread whose id is the
/// effect's id (from 1). Times are microseconds since the tracer started.
///
/// ```swift
/// event.is(event.category, TraceSchema.Category.action)      // a reader comparing a name in the file's bytes
/// TraceSchema.effectName(3, action: ".load")                 // "effect 3 · .load"
/// ```
package enum TraceSchema {
  /// The members of an event object (the Chrome format's keys).
  package enum Key {
    package static let name: StaticString = "name"
    package static let category: StaticString = "cat"
    package static let phase: StaticString = "ph"
    /// When, in microseconds.
    package static let time: StaticString = "ts"
    /// How long a ``Phase/complete`` event lasted, in microseconds.
    package static let duration: StaticString = "dur"
    package static let process: StaticString = "pid"
    package static let thread: StaticString = "tid"
    package static let arguments: StaticString = "args"
    /// An instant event's scope: ``threadScope``.
    package static let scope: StaticString = "s"
  }

  /// The kinds of event the tracer writes (`ph`).
  package enum Phase {
    /// A slice with a start (`ts`) and a duration (`dur`): an action's reducer call, an effect's run.
    package static let complete: StaticString = "X"
    /// A moment: an effect cancelled, events dropped.
    package static let instant: StaticString = "i"
    /// A name or an order for a process or a thread (``Metadata``).
    package static let metadata: StaticString = "M"
  }

  /// What a slice or an instant is about (`cat`).
  package enum Category {
    /// A reduced action (thread ``actionsThread``).
    package static let action: StaticString = "action"
    /// An effect's slice, or its ``Name/cancelled`` instant (the effect's thread).
    package static let effect: StaticString = "effect"
    /// The tracer's own ``Name/droppedEvents`` instant (thread ``actionsThread``).
    package static let tracer: StaticString = "tracer"
  }

  /// The names of ``Phase/metadata`` events; each has one argument, ``Argument/name`` or ``Argument/sortIndex``.
  package enum Metadata {
    /// The store's name, ``storeName(_:)``.
    package static let processName: StaticString = "process_name"
    /// The store's place among the processes: its `pid`.
    package static let processSortIndex: StaticString = "process_sort_index"
    /// `actions` for thread ``actionsThread``; ``effectName(_:action:)`` for an effect's thread, written when it
    /// starts.
    package static let threadName: StaticString = "thread_name"
    /// The thread's place in its process: its `tid`.
    package static let threadSortIndex: StaticString = "thread_sort_index"
  }

  /// The names of the events that are not named after an action or an effect.
  package enum Name {
    /// The instant at which an effect was cancelled (``Category/effect``, on the effect's thread).
    package static let cancelled: StaticString = "cancelled"
    /// The instant at which the tracer fell behind and dropped ``Argument/count`` events (``Category/tracer``).
    package static let droppedEvents: StaticString = "dropped events"
    /// The name of the actions thread.
    package static let actions: StaticString = "actions"
  }

  /// The members of an event's `args`.
  package enum Argument {
    /// A ``Metadata/processName`` or ``Metadata/threadName`` event's name.
    package static let name: StaticString = "name"
    /// A ``Metadata/processSortIndex`` or ``Metadata/threadSortIndex`` event's place.
    package static let sortIndex: StaticString = "sort_index"
    /// An action's ``Reduction/sequence`` (the action log's step number).
    package static let sequence: StaticString = "sequence"
    /// An action's ``Reduction/origin``: `sent` or `received`.
    package static let origin: StaticString = "origin"
    /// An action's full description (its slice's name is the short one, `TraceFormat.shortName(_:)`).
    package static let action: StaticString = "action"
    /// The effect that fed back a received action (``Reduction/effect``).
    package static let effect: StaticString = "effect"
    /// The sequence of the action whose reduction started an effect.
    package static let startedBy: StaticString = "startedBy"
    /// `true` on the slice of an effect that was cancelled.
    package static let cancelled: StaticString = "cancelled"
    /// `true` on the slice of an effect still running when the trace was closed (it ends at the close).
    package static let unfinished: StaticString = "unfinished"
    /// How many events a ``Name/droppedEvents`` instant stands for.
    package static let count: StaticString = "count"
    /// The state after an action, as `customDump` prints it: on action slices of a store traced with its states
    /// (``StoreTracer/instrument(for:recordingStates:)``).
    package static let state: StaticString = "state"
    /// What an action changed, as the `TestStore` prints a diff: beside ``state``, on the actions that changed it.
    package static let diff: StaticString = "diff"
  }

  /// The thread of a store's actions (and of its tracer's instants); an effect's thread is its id, from 1.
  package static let actionsThread = 0
  /// The scope of every instant event: its thread.
  package static let threadScope: StaticString = "t"

  /// The process name of a store of the reducer named `reducer`: `Counter store`.
  package static func storeName(_ reducer: String) -> String {
    "\(reducer) store"
  }

  /// The name of an effect's thread and slice: `effect 3 · .load`, after the action that started it.
  package static func effectName(_ effect: UInt64, action: String) -> String {
    effectNamePrefix + String(effect) + effectNameSeparator + action
  }

  /// The action's name in an effect's name made by ``effectName(_:action:)`` for `effect`, or `nil` when `name` is
  /// not one.
  package static func actionName(inEffectName name: String, effect: UInt64) -> String? {
    var rest = Substring(name).utf8
    guard rest.starts(with: effectNamePrefix.utf8) else { return nil }
    rest = rest.dropFirst(effectNamePrefix.utf8.count)
    let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    guard UInt64(Substring(digits)) == effect else { return nil }
    rest = rest.dropFirst(digits.count)
    guard rest.starts(with: effectNameSeparator.utf8) else { return nil }
    return String(Substring(rest.dropFirst(effectNameSeparator.utf8.count)))
  }

  /// What comes before an effect's id in its name, and between the id and the action's name.
  private static let (effectNamePrefix, effectNameSeparator) = ("effect ", " · ")
}

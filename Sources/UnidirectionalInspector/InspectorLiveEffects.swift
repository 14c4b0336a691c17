import Unidirectional

/// The effects of a live run, as ``InspectorLive`` collects their events from the store's instrument: each effect
/// from its start to its end (or cancellation), at the steps its events happened, kept up to a limit.
///
/// Times are stamped when the events are collected (within ``InspectorLive/collectInterval`` of the event): the
/// store's send path reads no clock for the inspector. The latest changes are kept too, so the live page's event
/// stream can carry them (``changes(after:)``) instead of the page asking again.
///
/// ```swift
/// var effects = InspectorLiveEffects(limit: 100_000)
/// effects.apply(record, time: 0.25) { step in history.name(of: step) }
/// let page = effects.page(from: 1, to: 40, offset: 0, count: 200)
/// ```
struct InspectorLiveEffects: Sendable {
  /// How many effects are kept; past it, the ones that started first are forgotten.
  let limit: Int
  /// How many events have been applied: the page asks again when it changes.
  private(set) var version = 0
  /// Effect events the instrument dropped because its buffer was full.
  private(set) var dropped = 0
  private var index = InspectorEffectIndex()
  /// The latest changes: the version each made, and the effect as it was then.
  private var recent: [(version: Int, effect: InspectorEffect)] = []
  /// How many changes ``changes(after:)`` can look back (at least).
  static let recentLimit = 512

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// How many effects are kept.
  var count: Int { index.effects.count }

  /// Applies one event collected at `time` (seconds since the run started); `name` names the action of a step.
  mutating func apply(_ record: InspectorLive.EffectRecord, time: Double, name: (Int) -> String) {
    version += 1
    let event = record.event
    let step = Int(clamping: record.step)
    switch event.kind {
    case .started:
      let startedBy = Int(clamping: event.startedBy)
      let effect = InspectorEffect(
        id: event.effect, startedBy: startedBy, parent: event.parent, name: name(startedBy), endStep: nil,
        cancelled: false, cancelStep: nil, start: time, duration: nil)
      index.upsert(effect)
      if index.effects.count > limit + limit / 8 { index.removeFirst(index.effects.count - limit) }
      remember(effect)
    case .cancelled:
      guard var effect = index.effect(event.effect) else { return }
      effect.cancelled = true
      effect.cancelStep = max(effect.startedBy, step)
      index.upsert(effect)
      remember(effect)
    case .finished:
      guard var effect = index.effect(event.effect) else { return }
      effect.endStep = max(effect.startedBy, step)
      effect.duration = max(0, time - effect.start)
      index.upsert(effect)
      remember(effect)
    }
  }

  private mutating func remember(_ effect: InspectorEffect) {
    recent.append((version, effect))
    if recent.count > 2 * Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
  }

  /// The effects that changed after `version`, each as it is now, by when it last changed; `nil` when more changed
  /// than are kept (ask for the window again).
  func changes(after version: Int) -> [InspectorEffect]? {
    guard version < self.version else { return [] }
    // Versions count every event (dropped ones too): the changes are all here when the one after `version` is.
    guard let oldest = recent.first, oldest.version <= version + 1 else { return nil }
    var latest: [UInt64: Int] = [:]
    let changed = recent.drop { $0.version <= version }
    for (position, change) in zip(changed.indices, changed) { latest[change.effect.id] = position }
    return changed.indices.filter { latest[recent[$0].effect.id] == $0 }.map { recent[$0].effect }
  }

  /// Counts effect events the instrument dropped.
  mutating func addDropped(_ count: Int) {
    guard count > 0 else { return }
    dropped += count
    version += 1
  }

  /// Up to `count` effects from position `offset` among those running at some step from `first` to `last`.
  func page(from first: Int, to last: Int, offset: Int, count: Int) -> InspectorEffectPage {
    index.page(from: first, to: last, offset: offset, count: count)
  }
}

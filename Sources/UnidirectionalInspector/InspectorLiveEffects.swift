import Unidirectional

/// The effects of a live run, as ``InspectorLive`` collects their events from the store's observer: each effect
/// from its start to its end (or cancellation), at the steps its events happened, kept up to a limit.
///
/// Times are stamped when the events are collected (within ``InspectorLive/collectInterval`` of the event): the
/// store's send path reads no clock for the inspector.
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
  /// Effect events the observer dropped because its buffer was full.
  private(set) var dropped = 0
  private var index = InspectorEffectIndex()

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
      index.upsert(
        InspectorEffect(
          id: event.effect, startedBy: startedBy, parent: event.parent, name: name(startedBy), endStep: nil,
          cancelled: false, cancelStep: nil, start: time, duration: nil))
      if index.effects.count > limit + limit / 8 { index.removeFirst(index.effects.count - limit) }
    case .cancelled:
      guard var effect = index.effect(event.effect) else { return }
      effect.cancelled = true
      effect.cancelStep = max(effect.startedBy, step)
      index.upsert(effect)
    case .finished:
      guard var effect = index.effect(event.effect) else { return }
      effect.endStep = max(effect.startedBy, step)
      effect.duration = max(0, time - effect.start)
      index.upsert(effect)
    }
  }

  /// Counts effect events the observer dropped.
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

/// The instrument a ``StoreTracer`` gives each store: queues what the store does (``TraceEvents``, with the store's
/// lock, no lock of its own) and formats it as trace events on a background queue.
@usableFromInline
final class TraceInstrument<State, Action: Sendable>: StoreInstrument, TracedStore, @unchecked Sendable {
  @usableFromInline var measuresTime: Bool { true }
  private let events: TraceEvents<Action>
  /// Queue a reduced action and an effect event: made by the inlinable ``StoreTracer/instrument(for:)``, where
  /// `Action` is the app's own type, so queueing is specialized code (see ``TraceItem``).
  private let appendAction: (Action, Reduction) -> Void
  private let appendEffect: (EffectEvent) -> Void

  @usableFromInline
  init(
    events: TraceEvents<Action>, appendAction: @escaping (Action, Reduction) -> Void,
    appendEffect: @escaping (EffectEvent) -> Void
  ) {
    self.events = events
    self.appendAction = appendAction
    self.appendEffect = appendEffect
  }

  @usableFromInline
  func storeDidStart(_ store: InstrumentedStore<State>) {
    events.attach(store.lock)
    events.append(.start)
  }

  @usableFromInline
  func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    appendAction(action, reduction)
  }

  @usableFromInline
  func effectDidChange(_ event: EffectEvent) {
    appendEffect(event)
  }

  @usableFromInline
  func flush() {
    events.flush()
  }

  @usableFromInline
  func finish(at time: UInt64) {
    events.appendFromOutside(.finish(at: time))
    events.flush()
  }
}

/// What a traced store queues for its tracer's background queue.
///
/// Generic over the app's action, and appended only by closures made where that type is concrete: there building an
/// item and appending it are a few moves. Appended from the instrument's own (unspecialized) methods, the same item
/// made every `didReduce` look up this enum's and its payload tuple's runtime type metadata (about 750 of the
/// sender's 1,950 instructions, callgrind `--profile send_traced`); boxing the action as `any Sendable` instead cost
/// about 290 still.
@usableFromInline
enum TraceItem<Action: Sendable> {
  case start
  case action(Action, Reduction)
  case effect(EffectEvent)
  case finish(at: UInt64)
}

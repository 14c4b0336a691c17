/// The instrument a ``StoreTracer`` gives each store: queues what the store does (``TraceEvents``, with the store's
/// lock, no lock of its own) and formats it as trace events on a background queue.
@usableFromInline
final class TraceInstrument<State, Action: Sendable>: StoreInstrument, TracedStore, @unchecked Sendable {
  @usableFromInline var measuresTime: Bool { true }
  private let events: TraceEvents<Action>
  /// Queue a reduced action and an effect event: made by the inlinable ``StoreTracer/instrument(for:)``, where
  /// `Action` is the app's own type, so queueing is specialized code (see ``TraceItem``).
  private let appendAction: (Action, Reduction, ReducedState<State>) -> Void
  private let appendEffect: (EffectEvent) -> Void

  @usableFromInline
  init(
    events: TraceEvents<Action>, appendAction: @escaping (Action, Reduction, ReducedState<State>) -> Void,
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
    appendAction(action, reduction, state)
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
  /// An action of a store traced with its states, with the state after it.
  case actionAndState(Action, Reduction, TracedState)
  case effect(EffectEvent)
  case finish(at: UInt64)
}

/// The state after an action, dumped as a store traced with its states records it: `customDump(state)`, and the
/// diff from the state before (nil when the action changed nothing).
@usableFromInline
struct TracedState: Sendable {
  let dump: String
  let diff: String?
}

/// Dumps a traced store's states, one action after another, keeping the last to diff the next against. Called with
/// the store's lock held (from the instrument), so one at a time.
@usableFromInline
final class TracedStates<State>: @unchecked Sendable {
  private var previous: State?

  @usableFromInline
  init() {}

  @usableFromInline
  func trace(_ state: State) -> TracedState {
    defer { previous = state }
    return TracedState(dump: customDump(state), diff: previous.flatMap { diff($0, state) })
  }
}

/// The observer a ``StoreTracer`` gives each store: queues what the store does and formats it as trace events on a
/// background queue.
final class TraceObserver<State, Action: Sendable>: StoreObserver, TracedStore, @unchecked Sendable {
  var measuresTime: Bool { true }
  private let events: DrainQueue<TraceItem>

  /// The observer of the `process`-th store traced by `tracer`, named `name` in the trace.
  init(tracer: StoreTracer, process: Int, name: String) {
    var format = TraceFormat(process: process, origin: tracer.origin)
    events = DrainQueue(label: "Unidirectional.StoreTracer", limit: 100_000) { [weak tracer] items, dropped in
      var lines: [String] = []
      for item in items {
        switch item {
        case .start: format.start(name: name, into: &lines)
        case let .action(action, reduction): format.action(describe(action), reduction, into: &lines)
        case let .effect(event): format.effect(event, into: &lines)
        case let .finish(time): format.finishRunningEffects(at: time, into: &lines)
        }
      }
      if dropped > 0 { format.dropped(dropped, into: &lines) }
      tracer?.write(lines)
    }
  }

  func storeDidStart(_ store: ObservedStore<State>) {
    events.append(.start)
  }

  func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    events.append(.action(action, reduction))  // `action` boxed: see `TraceItem`
  }

  func effectDidChange(_ event: EffectEvent) {
    events.append(.effect(event))
  }

  func flush() {
    events.flush()
  }

  func finish(at time: UInt64) {
    events.append(.finish(at: time), evenIfFull: true)
    events.flush()
  }
}

/// What a traced store queues for its tracer's background queue.
///
/// Not generic on purpose: a generic item (an enum nested in `TraceObserver<State, Action>`) makes every `didReduce`
/// look up that enum's and its payload tuple's runtime type metadata, about 750 of the sender's 1,950 instructions
/// (callgrind, `--profile send_traced`). The action travels boxed as `any Sendable`, which `describe` opens again.
enum TraceItem {
  case start
  case action(any Sendable, Reduction)
  case effect(EffectEvent)
  case finish(at: UInt64)
}

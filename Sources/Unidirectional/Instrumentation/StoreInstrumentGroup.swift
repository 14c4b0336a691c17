/// Several instruments of one store, called in order.
final class StoreInstrumentGroup<State, Action: Sendable>: StoreInstrument {
  private let instruments: [any StoreInstrument<State, Action>]
  let measuresTime: Bool

  init(_ instruments: [any StoreInstrument<State, Action>]) {
    self.instruments = instruments
    self.measuresTime = instruments.contains { $0.measuresTime }
  }

  func storeDidStart(_ store: InstrumentedStore<State>) {
    for instrument in instruments { instrument.storeDidStart(store) }
  }

  func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    for instrument in instruments { instrument.didReduce(action, reduction, state: state) }
  }

  func effectDidChange(_ event: EffectEvent) {
    for instrument in instruments { instrument.effectDidChange(event) }
  }

  func storeDidEnd() {
    for instrument in instruments { instrument.storeDidEnd() }
  }

  /// The members' step buffers, which their `didReduce` fills: the store guards them with its lock.
  var stepBuffers: [StepBuffer<State, Action>] { instruments.compactMap { $0.stepBuffer } }
}

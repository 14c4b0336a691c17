/// Several observers of one store, called in order.
final class StoreObserverGroup<State, Action: Sendable>: StoreObserver {
  private let observers: [any StoreObserver<State, Action>]
  let measuresTime: Bool

  init(_ observers: [any StoreObserver<State, Action>]) {
    self.observers = observers
    self.measuresTime = observers.contains { $0.measuresTime }
  }

  func storeDidStart(_ store: ObservedStore<State>) {
    for observer in observers { observer.storeDidStart(store) }
  }

  func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    for observer in observers { observer.didReduce(action, reduction, state: state) }
  }

  func effectDidChange(_ event: EffectEvent) {
    for observer in observers { observer.effectDidChange(event) }
  }

  func storeDidEnd() {
    for observer in observers { observer.storeDidEnd() }
  }

  /// The members' step buffers, which their `didReduce` fills: the store guards them with its lock.
  var stepBuffers: [StepBuffer<State, Action>] { observers.compactMap { $0.stepBuffer } }
}

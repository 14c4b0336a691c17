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

  /// The step buffers of `observer`, or of every observer in it if it is a group: the store guards them all with
  /// its lock, whichever fills them (the store itself, or an observer's `didReduce`).
  static func stepBuffers(of observer: any StoreObserver<State, Action>) -> [StepBuffer<State, Action>] {
    guard let group = observer as? StoreObserverGroup<State, Action> else {
      return observer.stepBuffer.map { [$0] } ?? []
    }
    return group.observers.compactMap { $0.stepBuffer }
  }
}

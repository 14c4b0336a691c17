import Foundation
import Unidirectional

/// The store observer of a live inspector (``InspectorLive/observer(for:bufferLimit:)``): it copies each action
/// and the states around it into a bounded buffer and returns — no formatting, no I/O, no waiting for the page.
///
/// ```swift
/// let store = Store(initialState: Counter.State(), observers: [live.observer(for: Counter.self)]) { Counter() }
/// ```
public final class InspectorObserver<State: Sendable, Action: Sendable>: StoreObserver, InspectorStepSource,
  @unchecked Sendable
{
  private struct Pending {
    let sequence: UInt64
    let origin: ActionOrigin
    let action: Action
    let before: State
    let after: State
  }

  private weak var live: InspectorLive?
  private let bufferLimit: Int
  private let started = ContinuousClock.now
  // Written only in the store's observer calls, which hold the store's lock.
  private var previous: State?
  // Guarded by `lock`: the only thing the send path shares with the inspector.
  private let lock = NSLock()
  private var pending: [Pending] = []
  private var dropped = 0

  init(live: InspectorLive, bufferLimit: Int) {
    self.live = live
    self.bufferLimit = bufferLimit
    pending.reserveCapacity(min(bufferLimit, 1_024))
  }

  public func storeDidStart(_ store: ObservedStore<State>) {
    let initial = store.initialState
    previous = initial
    live?.started { customDump(initial) }
  }

  public func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    let after = state.value
    let before = previous ?? after
    previous = after
    lock.lock()
    if pending.count < bufferLimit {
      pending.append(
        Pending(sequence: reduction.sequence, origin: reduction.origin, action: action, before: before, after: after))
    } else {
      dropped += 1
    }
    lock.unlock()
  }

  public func storeDidEnd() {
    live?.storeDidEnd()
  }

  func takeSteps() -> ([InspectorLive.Step], Int) {
    lock.lock()
    let taken = pending
    let lost = dropped
    pending.removeAll(keepingCapacity: true)
    dropped = 0
    lock.unlock()
    // Stamped when collected (within the collect interval of the send): the send path reads no clock.
    let elapsed = ContinuousClock.now - started
    let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let steps = taken.map { entry in
      let action = entry.action
      let before = entry.before
      let after = entry.after
      return InspectorLive.Step(
        summary: InspectorStepSummary(
          n: Int(entry.sequence), name: InspectorActionName.of(action), origin: entry.origin.rawValue, time: time),
        render: { (customDump(action), customDump(after), diff(before, after)) })
    }
    return (steps, lost)
  }
}

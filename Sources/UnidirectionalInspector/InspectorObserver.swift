import Foundation
import Unidirectional

/// The store observer of a live inspector (``InspectorLive/observer(for:bufferLimit:)``): it copies each action and
/// the state it left into a preallocated buffer and returns — no lock of its own, no formatting, no I/O, no waiting
/// for the page.
///
/// The store calls it with the store's lock held; the inspector's collector takes the filled buffer (swapping in an
/// empty one) under that same lock, every few milliseconds. A full buffer drops actions and counts them.
///
/// ```swift
/// let store = Store(initialState: Counter.State(), observers: [live.observer(for: Counter.self)]) { Counter() }
/// ```
public final class InspectorObserver<State: Sendable, Action: Sendable>: StoreObserver, InspectorStepSource,
  @unchecked Sendable
{
  /// One buffer: parallel arrays of what each reduced action left, and how many were dropped while it was current.
  private struct Buffer {
    let actions: UnsafeMutablePointer<Action>
    let states: UnsafeMutablePointer<State>
    let sequences: UnsafeMutablePointer<UInt64>
    let origins: UnsafeMutablePointer<ActionOrigin>
    var count = 0
    var dropped = 0

    init(capacity: Int) {
      actions = .allocate(capacity: capacity)
      states = .allocate(capacity: capacity)
      sequences = .allocate(capacity: capacity)
      origins = .allocate(capacity: capacity)
    }

    mutating func removeAll() {
      actions.deinitialize(count: count)
      states.deinitialize(count: count)
      count = 0
      dropped = 0
    }

    func deallocate() {
      actions.deallocate()
      states.deallocate()
      sequences.deallocate()
      origins.deallocate()
    }
  }

  private weak var live: InspectorLive?
  private let capacity: Int
  private let started = ContinuousClock.now
  /// The buffer the store writes to, behind a pointer: the send path pays no exclusivity check.
  private let current: UnsafeMutablePointer<UnsafeMutablePointer<Buffer>>
  private let first: UnsafeMutablePointer<Buffer>
  private let second: UnsafeMutablePointer<Buffer>
  // Used by the collector only (one thread), and `storeDidStart`.
  private let lock = NSLock()
  private var storeLock: StoreLock?
  /// The state after the last step collected, and its number: the state before the next one.
  private var lastState: (sequence: UInt64, state: State)?

  init(live: InspectorLive, bufferLimit: Int) {
    self.live = live
    capacity = max(1, bufferLimit)
    first = .allocate(capacity: 1)
    first.initialize(to: Buffer(capacity: capacity))
    second = .allocate(capacity: 1)
    second.initialize(to: Buffer(capacity: capacity))
    current = .allocate(capacity: 1)
    current.initialize(to: first)
  }

  deinit {
    for buffer in [first, second] {
      buffer.pointee.removeAll()
      buffer.pointee.deallocate()
      buffer.deinitialize(count: 1)
      buffer.deallocate()
    }
    current.deallocate()
  }

  public func storeDidStart(_ store: ObservedStore<State>) {
    let initial = store.initialState
    lock.withLock {
      storeLock = store.lock
      lastState = (0, initial)
    }
    live?.started { customDump(initial) }
  }

  @inline(__always)
  public func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    let buffer = current.pointee
    let index = buffer.pointee.count
    guard index < capacity else {
      buffer.pointee.dropped += 1
      return
    }
    (buffer.pointee.actions + index).initialize(to: action)
    (buffer.pointee.states + index).initialize(to: state.value)
    buffer.pointee.sequences[index] = reduction.sequence
    buffer.pointee.origins[index] = reduction.origin
    buffer.pointee.count = index + 1
  }

  public func storeDidEnd() {
    live?.storeDidEnd()
  }

  func takeSteps() -> ([InspectorLive.Step], Int) {
    lock.lock()
    defer { lock.unlock() }
    // Swap buffers with the store's lock held (in step with `didReduce`); once the store is gone nothing writes.
    let swap = { [current, first, second] () -> UnsafeMutablePointer<Buffer> in
      let taken = current.pointee
      current.pointee = taken == first ? second : first
      return taken
    }
    let taken = storeLock.flatMap { $0.withLock(swap) } ?? swap()
    defer { taken.pointee.removeAll() }
    // Stamped when collected (within the collect interval of the send): the send path reads no clock.
    let elapsed = ContinuousClock.now - started
    let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    var steps: [InspectorLive.Step] = []
    steps.reserveCapacity(taken.pointee.count)
    for index in 0..<taken.pointee.count {
      let action = taken.pointee.actions[index]
      let after = taken.pointee.states[index]
      let sequence = taken.pointee.sequences[index]
      // The state before is the previous step's, unless that step was dropped.
      let before = lastState.flatMap { $0.sequence + 1 == sequence ? $0.state : nil }
      lastState = (sequence, after)
      steps.append(
        InspectorLive.Step(
          summary: InspectorStepSummary(
            n: Int(sequence), name: InspectorActionName.of(action), origin: taken.pointee.origins[index].rawValue,
            time: time),
          render: {
            let change = before.map { diff($0, after) } ?? "(the step before was dropped: no diff)"
            return (customDump(action), customDump(after), change)
          }))
    }
    if taken.pointee.dropped > 0 { lastState = nil }
    return (steps, taken.pointee.dropped)
  }
}

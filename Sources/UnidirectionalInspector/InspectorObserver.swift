import Foundation
import Unidirectional

/// The store observer of a live inspector (``InspectorLive/observer(for:bufferLimit:)``): it copies each action and
/// the state it left, and each effect event with the step it happened at, into a preallocated buffer and returns —
/// no lock of its own, no formatting, no I/O, no waiting for the page.
///
/// The store calls it with the store's lock held; the inspector's collector takes the filled buffer (swapping in an
/// empty one) under that same lock, every few milliseconds. A full buffer drops actions (or effect events) and
/// counts them. Effect events come only from actions that start effects: a plain `send` never reaches them.
///
/// ```swift
/// let store = Store(initialState: Counter.State(), observers: [live.observer(for: Counter.self)]) { Counter() }
/// ```
public final class InspectorObserver<State: Sendable, Action: Sendable>: StoreObserver, InspectorStepSource,
  @unchecked Sendable
{
  /// One buffer: parallel arrays of what each reduced action left, and how many were dropped while it was current.
  /// Not generic (raw pointers, bound on use): the send path reads its fields at fixed offsets, without looking up
  /// a generic type's metadata.
  private struct Buffer {
    let actions: UnsafeMutableRawPointer
    let states: UnsafeMutableRawPointer
    let sequences: UnsafeMutablePointer<UInt64>
    let origins: UnsafeMutablePointer<ActionOrigin>
    var count = 0
    var dropped = 0
    let effects: UnsafeMutablePointer<InspectorLive.EffectRecord>
    var effectCount = 0
    var effectsDropped = 0
  }

  private weak var live: InspectorLive?
  private let capacity: Int
  private let started = ContinuousClock.now
  /// The buffer the store writes to, behind a pointer: the send path pays no exclusivity check.
  private let current: UnsafeMutablePointer<UnsafeMutablePointer<Buffer>>
  private let first: UnsafeMutablePointer<Buffer>
  private let second: UnsafeMutablePointer<Buffer>
  /// The last step of the buffers taken so far (written under the store's lock, as the buffers are swapped).
  private let lastTakenStep: UnsafeMutablePointer<UInt64>
  // Used by the collector only (one thread), and `storeDidStart`.
  private let lock = NSLock()
  private var storeLock: StoreLock?
  /// The state after the last step collected, and its number: the state before the next one.
  private var lastState: (sequence: UInt64, state: State)?

  init(live: InspectorLive, bufferLimit: Int) {
    self.live = live
    capacity = max(1, bufferLimit)
    first = Self.allocateBuffer(capacity: capacity)
    second = Self.allocateBuffer(capacity: capacity)
    current = .allocate(capacity: 1)
    current.initialize(to: first)
    lastTakenStep = .allocate(capacity: 1)
    lastTakenStep.initialize(to: 0)
  }

  deinit {
    for buffer in [first, second] {
      Self.removeAll(buffer)
      buffer.pointee.actions.deallocate()
      buffer.pointee.states.deallocate()
      buffer.pointee.sequences.deallocate()
      buffer.pointee.origins.deallocate()
      buffer.pointee.effects.deallocate()
      buffer.deinitialize(count: 1)
      buffer.deallocate()
    }
    current.deallocate()
    lastTakenStep.deallocate()
  }

  private static func allocateBuffer(capacity: Int) -> UnsafeMutablePointer<Buffer> {
    let buffer = UnsafeMutablePointer<Buffer>.allocate(capacity: 1)
    buffer.initialize(
      to: Buffer(
        actions: UnsafeMutableRawPointer(UnsafeMutablePointer<Action>.allocate(capacity: capacity)),
        states: UnsafeMutableRawPointer(UnsafeMutablePointer<State>.allocate(capacity: capacity)),
        sequences: .allocate(capacity: capacity), origins: .allocate(capacity: capacity),
        effects: .allocate(capacity: capacity)))
    return buffer
  }

  private static func removeAll(_ buffer: UnsafeMutablePointer<Buffer>) {
    buffer.pointee.actions.assumingMemoryBound(to: Action.self).deinitialize(count: buffer.pointee.count)
    buffer.pointee.states.assumingMemoryBound(to: State.self).deinitialize(count: buffer.pointee.count)
    buffer.pointee.effects.deinitialize(count: buffer.pointee.effectCount)
    buffer.pointee.count = 0
    buffer.pointee.dropped = 0
    buffer.pointee.effectCount = 0
    buffer.pointee.effectsDropped = 0
  }

  /// The last step reduced so far, from what the current buffer holds (sequences count up by one per action,
  /// dropped ones too).
  private func currentStep(_ buffer: UnsafeMutablePointer<Buffer>) -> UInt64 {
    let count = buffer.pointee.count
    guard count > 0 else { return lastTakenStep.pointee }
    return buffer.pointee.sequences[count - 1] &+ UInt64(buffer.pointee.dropped)
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
    buffer.pointee.actions.assumingMemoryBound(to: Action.self).advanced(by: index).initialize(to: action)
    buffer.pointee.states.assumingMemoryBound(to: State.self).advanced(by: index).initialize(to: state.value)
    buffer.pointee.sequences[index] = reduction.sequence
    buffer.pointee.origins[index] = reduction.origin
    buffer.pointee.count = index + 1
  }

  public func effectDidChange(_ event: EffectEvent) {
    let buffer = current.pointee
    let index = buffer.pointee.effectCount
    guard index < capacity else {
      buffer.pointee.effectsDropped += 1
      return
    }
    let step = max(currentStep(buffer), event.startedBy)
    buffer.pointee.effects.advanced(by: index).initialize(to: InspectorLive.EffectRecord(event: event, step: step))
    buffer.pointee.effectCount = index + 1
  }

  public func storeDidEnd() {
    live?.storeDidEnd()
  }

  func take() -> InspectorLive.Taken {
    lock.lock()
    defer { lock.unlock() }
    // Swap buffers with the store's lock held (in step with `didReduce`); once the store is gone nothing writes.
    let swap = { [self] () -> UnsafeMutablePointer<Buffer> in
      let taken = current.pointee
      lastTakenStep.pointee = currentStep(taken)
      current.pointee = taken == first ? second : first
      return taken
    }
    let taken = storeLock.flatMap { $0.withLock(swap) } ?? swap()
    defer { Self.removeAll(taken) }
    let actions = taken.pointee.actions.assumingMemoryBound(to: Action.self)
    let states = taken.pointee.states.assumingMemoryBound(to: State.self)
    // Stamped when collected (within the collect interval of the send): the send path reads no clock.
    let elapsed = ContinuousClock.now - started
    let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    var steps: [InspectorLive.Step] = []
    steps.reserveCapacity(taken.pointee.count)
    for index in 0..<taken.pointee.count {
      let action = actions[index]
      let after = states[index]
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
    let effects = (0..<taken.pointee.effectCount).map { taken.pointee.effects[$0] }
    return InspectorLive.Taken(
      steps: steps, dropped: taken.pointee.dropped, effects: effects, effectsDropped: taken.pointee.effectsDropped,
      time: time)
  }
}

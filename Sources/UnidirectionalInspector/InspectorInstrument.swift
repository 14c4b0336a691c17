import Foundation
import Unidirectional

/// The store instrument of a live inspector (``InspectorLive/instrument(for:bufferLimit:)``): the store copies each
/// action and the state it left into its ``StepBuffer`` itself, and the instrument copies each effect event with the
/// step it happened at into a preallocated buffer — no lock of its own, no formatting, no I/O, no waiting for the page.
///
/// The inspector's collector takes the filled buffers (swapping in empty ones) under the store's lock, every few
/// milliseconds. A full buffer drops actions (or effect events) and counts them. Effect events come only from actions
/// that start effects: a plain `send` never reaches them.
///
/// ```swift
/// let store = Store(initialState: Counter.State(), instruments: [live.instrument(for: Counter.self)]) { Counter() }
/// ```
public final class InspectorInstrument<State: Sendable, Action: Sendable>: StoreInstrument, InspectorStepSource,
  @unchecked Sendable
{
  /// One buffer of effect events, and how many were dropped while it was current.
  private struct EffectBuffer {
    let records: UnsafeMutablePointer<InspectorLive.EffectRecord>
    var count = 0
    var dropped = 0
  }

  private weak var live: InspectorLive?
  private let steps: StepBuffer<State, Action>
  private let capacity: Int
  private let started = ContinuousClock.now
  /// The effect buffer the store writes to, behind a pointer: the send path pays no exclusivity check.
  private let current: UnsafeMutablePointer<UnsafeMutablePointer<EffectBuffer>>
  private let first: UnsafeMutablePointer<EffectBuffer>
  private let second: UnsafeMutablePointer<EffectBuffer>
  // Used by the collector only (one thread, inside `steps.take`), and `storeDidStart`.
  private let lock = NSLock()
  /// The state after the last step collected, and its number: the state before the next one.
  private var lastState: (sequence: UInt64, state: State)?

  @usableFromInline
  init(live: InspectorLive, steps: StepBuffer<State, Action>) {
    self.live = live
    capacity = steps.capacity
    self.steps = steps
    first = Self.allocateBuffer(capacity: capacity)
    second = Self.allocateBuffer(capacity: capacity)
    current = .allocate(capacity: 1)
    current.initialize(to: first)
  }

  deinit {
    for buffer in [first, second] {
      Self.removeAll(buffer)
      buffer.pointee.records.deallocate()
      buffer.deinitialize(count: 1)
      buffer.deallocate()
    }
    current.deallocate()
  }

  private static func allocateBuffer(capacity: Int) -> UnsafeMutablePointer<EffectBuffer> {
    let buffer = UnsafeMutablePointer<EffectBuffer>.allocate(capacity: 1)
    buffer.initialize(to: EffectBuffer(records: .allocate(capacity: capacity)))
    return buffer
  }

  private static func removeAll(_ buffer: UnsafeMutablePointer<EffectBuffer>) {
    buffer.pointee.records.deinitialize(count: buffer.pointee.count)
    buffer.pointee.count = 0
    buffer.pointee.dropped = 0
  }

  /// The store copies its steps here (see ``StepBuffer``): no instrument call per action.
  public var stepBuffer: StepBuffer<State, Action>? { steps }

  public func storeDidStart(_ store: InstrumentedStore<State>) {
    let initial = store.initialState
    lock.withLock { lastState = (0, initial) }
    live?.started { customDump(initial) }
  }

  /// Called only when the store has other instruments too: the same copy the store makes on its own.
  @inline(__always)
  public func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {
    steps.append(action, reduction: reduction, state: state)
  }

  public func effectDidChange(_ event: EffectEvent) {
    let buffer = current.pointee
    let index = buffer.pointee.count
    guard index < capacity else {
      buffer.pointee.dropped += 1
      return
    }
    let step = max(steps.lastSequence, event.startedBy)
    buffer.pointee.records.advanced(by: index).initialize(to: InspectorLive.EffectRecord(event: event, step: step))
    buffer.pointee.count = index + 1
  }

  public func storeDidEnd() {
    live?.storeDidEnd()
  }

  func take() -> InspectorLive.Taken {
    lock.lock()
    defer { lock.unlock() }
    // Effect events are swapped with the steps, under the store's lock: each refers to a step taken with it or before.
    var takenEffects = first
    let taken = steps.take(
      whileLocked: { [self] in
        takenEffects = current.pointee
        current.pointee = takenEffects == first ? second : first
      },
      { collect($0) })
    defer { Self.removeAll(takenEffects) }
    let effects = (0..<takenEffects.pointee.count).map { takenEffects.pointee.records[$0] }
    return InspectorLive.Taken(
      steps: taken.steps, dropped: taken.dropped, effects: effects, effectsDropped: takenEffects.pointee.dropped,
      time: taken.time)
  }

  /// The taken steps as the page shows them; their diffs are rendered only when the page asks.
  private func collect(_ taken: StepBuffer<State, Action>.Steps) -> (
    steps: [InspectorLive.Step], dropped: Int, time: Double
  ) {
    // Stamped when collected (within the collect interval of the send): the send path reads no clock.
    let elapsed = ContinuousClock.now - started
    let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    var steps: [InspectorLive.Step] = []
    steps.reserveCapacity(taken.count)
    for step in taken {
      let (action, after) = (step.action, step.state)
      // The state before is the previous step's, unless that step was dropped.
      let before = lastState.flatMap { $0.sequence + 1 == step.sequence ? $0.state : nil }
      lastState = (step.sequence, after)
      steps.append(
        InspectorLive.Step(
          summary: InspectorStepSummary(
            n: Int(step.sequence), name: InspectorActionName.of(action), origin: step.origin.rawValue, time: time),
          render: {
            let change = before.map { diff($0, after) } ?? "(the step before was dropped: no diff)"
            return (customDump(action), customDump(after), change)
          }))
    }
    if taken.dropped > 0 { lastState = nil }
    return (steps, taken.dropped, time)
  }
}

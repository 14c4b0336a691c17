import Foundation
import Synchronization

/// Records what a store reads from the non-deterministic built-in dependencies, for an action recorder to write
/// with each step (exact replay).
///
/// ``install(into:)`` wraps the store's `\.uuid`, `\.date`, `\.withRandomNumberGenerator` and clocks: each value
/// they give is kept, as a read of the reducer when the reading thread is reducing a store (it holds the store's
/// lock), else as a read of an effect. The recorder takes the reads with each reduced action, under the store's lock.
///
/// ```swift
/// let tape = DependencyReadTape()
/// tape.install(into: &dependencies)       // before the store is made
/// tape.arm()                              // when recording starts
/// // in the instrument's `didReduce`:
/// if tape.hasReads { let (reducer, effects) = tape.take() … }
/// ```
///
/// A reducer subtree that overrides one of these dependencies reads its own value, which is not recorded (a replay
/// through the same reducer overrides it the same way). Clocks' `now` is kept for reducers only: an effect's sleep
/// reads it too.
package final class DependencyReadTape: @unchecked Sendable {
  private let lock = Lock()
  // Guarded by `lock`.
  private var armed = false
  private var reducerReads = DependencyReads()
  private var effectReads = DependencyReads()
  /// Whether reads wait to be taken: the send path checks this without the lock.
  private let pending = Atomic<Bool>(false)

  package init() {}

  /// Starts keeping reads (those made before, while the store's initial state was made, are not).
  package func arm() {
    lock.withLock { armed = true }
  }

  /// Whether anything was read since the last ``take()``.
  @inline(__always)
  package var hasReads: Bool { pending.load(ordering: .relaxed) }

  /// The reads since the last call: the reducer's (of the action just reduced) and the effects'.
  package func take() -> (reducer: DependencyReads, effects: DependencyReads) {
    lock.withLock {
      pending.store(false, ordering: .relaxed)
      defer {
        reducerReads = DependencyReads()
        effectReads = DependencyReads()
      }
      return (reducerReads, effectReads)
    }
  }

  /// Wraps the non-deterministic built-ins of `values` so that what they give is recorded here.
  package func install(into values: inout DependencyValues) {
    let uuid = values.uuid
    values.uuid = UUIDGenerator { [self] in
      let value = uuid()
      record { $0.uuids.append(value) }
      return value
    }
    let date = values.date
    values.date = DateGenerator { [self] in
      let value = date()
      record { $0.dates.append(value) }
      return value
    }
    values.withRandomNumberGenerator = WithRandomNumberGenerator(
      RecordingRandomNumberGenerator(base: values.withRandomNumberGenerator, tape: self))
    for clock in ClockDependency.allCases {
      let base = values[keyPath: clock.keyPath]
      // An unimplemented clock reports any use (reading its `now` here would fail a test that never uses it).
      guard !(base is UnimplementedClock) else { continue }
      values[keyPath: clock.keyPath] = recording(base, dependency: clock)
    }
  }

  private func recording(_ clock: some Clock<Duration>, dependency: ClockDependency) -> any Clock<Duration> {
    ReadRecordingClock(base: clock, dependency: dependency, tape: self)
  }

  /// Keeps a value a reducer or an effect read.
  func record(_ add: (inout DependencyReads) -> Void) {
    let inReducer = ThreadContext.current(key: ThreadContext.key).pointee.heldStores != nil
    lock.withLock {
      guard armed else { return }
      if inReducer { add(&reducerReads) } else { add(&effectReads) }
      pending.store(true, ordering: .relaxed)
    }
  }

  /// Keeps a clock's `now` read by a reducer.
  func recordNow(_ elapsed: Duration, of clock: ClockDependency) {
    guard ThreadContext.current(key: ThreadContext.key).pointee.heldStores != nil else { return }
    record { $0.nows[clock, default: []].append(elapsed) }
  }
}

/// Draws from a store's random number generator and records each number.
private struct RecordingRandomNumberGenerator: RandomNumberGenerator, Sendable {
  let base: WithRandomNumberGenerator
  let tape: DependencyReadTape

  mutating func next() -> UInt64 {
    let value = base { $0.next() }
    tape.record { $0.randomNumbers.append(value) }
    return value
  }
}

import Foundation

/// What a store's `.run` effect needs besides its task, in plain Swift and without a store: the floor under
/// `run_effect_roundtrip` that no store keeping TCA's semantics can go below.
///
/// One round trip: a record of the running effect, kept for cancellation and teardown (a class in a dictionary,
/// under a lock); a `send` closure that takes the lock to feed an action back; the effect's dependencies and its
/// cancellation context bound as task-locals around the operation; the task, which removes its record when it ends,
/// awaited by the sender. The store does each of these (and reduces the fed-back action, reports to instruments,
/// keeps effect trees), so `run_effect_roundtrip` / `effect_parts_roundtrip` is what the store adds on top.
///
/// ```swift
/// let nanoseconds = await EffectParts().roundTrips(20_000)
/// ```
final class EffectParts: @unchecked Sendable {
  @TaskLocal static var dependencies = 0
  @TaskLocal static var context: EffectParts?

  /// One running effect.
  final class Record: @unchecked Sendable {
    var task: Task<Void, Never>?
  }

  private let lock = NSLock()
  private var running: [UInt64: Record] = [:]
  private var nextID: UInt64 = 0
  private(set) var received = 0

  /// Nanoseconds per round trip, over `iterations`.
  func roundTrips(_ iterations: Int) async -> Double {
    await measureAsync(iterations: iterations) { await roundTrip() }
  }

  /// Starts one effect whose operation sends one action back, and waits for it to end.
  func roundTrip() async {
    let operation: @Sendable (@Sendable (Int) -> Void) async -> Void = { send in send(1) }
    let record = Record()
    let id = lock.withLock {
      defer { nextID += 1 }
      running[nextID] = record
      return nextID
    }
    let send: @Sendable (Int) -> Void = { [self] action in lock.withLock { received += action } }
    let task = Task { [self] in
      await Self.$context.withValue(self) {
        await Self.$dependencies.withValue(1) { await operation(send) }
      }
      lock.withLock { running[id] = nil }
    }
    lock.withLock { record.task = task }
    await task.value
  }
}

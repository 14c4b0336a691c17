import Foundation
import Synchronization
import Unidirectional

/// What a program run on a live store records to check what does not depend on the order of threads: every send an
/// effect makes (with a token), every action reduced (with the token of the send that delivered it), every
/// cancellation of an effect's task (with the call that made it), and when each call returned. Times are a global
/// sequence number.
///
/// ```swift
/// let log = LiveLog()
/// log.call { store.send(action) }          // a call that may cancel effects: its return is recorded
/// ```
final class LiveLog: Sendable {
  struct Attempt {
    let run: RunID
    let began: UInt64
  }

  struct Cancellation {
    let seq: UInt64
    /// The call during which the task was cancelled, if it was one of ours (nil: a concatenation's own `.cancel`).
    let call: UInt64?
  }

  struct Records {
    var attempts: [UInt64: Attempt] = [:]
    var deliveries: [UInt64: UInt64] = [:]
    var cancellations: [RunID: Cancellation] = [:]
    var returns: [UInt64: UInt64] = [:]
    /// Runs nothing can cancel (not namespaced, in no `cancellable`, `debounce` or concatenation).
    var uncancellable: Set<RunID> = []
  }

  private let clock = Atomic<UInt64>(0)
  private let records = LockIsolated(Records())
  let waits = LongLivingWaits()

  func tick() -> UInt64 { clock.add(1, ordering: .sequentiallyConsistent).newValue }

  /// Runs `body`, a call into the store, as one call: a cancellation made on this thread meanwhile is attributed
  /// to it, and its return is recorded.
  func call<T>(_ body: () -> T) -> T {
    let id = tick()
    let outer = Self.currentCall.value
    Self.currentCall.value = id
    let result = body()
    Self.currentCall.value = outer
    let returned = tick()
    records.withLock { $0.returns[id] = returned }
    return result
  }

  /// An effect's `send`: a token the reducer sees while it reduces the action on this thread.
  func send(from run: RunID, _ deliver: () -> Void) {
    let token = tick()
    records.withLock { $0.attempts[token] = Attempt(run: run, began: token) }
    let outer = Self.currentToken.value
    Self.currentToken.value = token
    call(deliver)
    Self.currentToken.value = outer
  }

  /// Called at the start of every reduction: the action carries the current send's token, if any.
  func reduced() {
    guard let token = Self.currentToken.value else { return }
    let seq = tick()
    records.withLock { if $0.deliveries[token] == nil { $0.deliveries[token] = seq } }
  }

  func cancelled(_ run: RunID) {
    let cancellation = Cancellation(seq: tick(), call: Self.currentCall.value)
    records.withLock { if $0.cancellations[run] == nil { $0.cancellations[run] = cancellation } }
  }

  func markUncancellable(_ run: RunID) {
    records.withLock { _ = $0.uncancellable.insert(run) }
  }

  var all: Records { records.value }

  /// The current call and send of this thread (not inherited by tasks, unlike task-locals: a task started inside a
  /// call must not count as part of it).
  static let currentCall = ThreadLocal()
  static let currentToken = ThreadLocal()
}

/// A `UInt64?` per thread.
final class ThreadLocal: @unchecked Sendable {
  private var key = pthread_key_t()

  init() {
    pthread_key_create(&key, nil)
  }

  var value: UInt64? {
    get { pthread_getspecific(key).map { UInt64(UInt(bitPattern: $0)) - 1 } }
    set { pthread_setspecific(key, newValue.flatMap { UnsafeRawPointer(bitPattern: UInt($0 + 1)) }) }
  }
}

/// The long-living waits of effects on a live store (`never`, `stream`): each ends when its effect is cancelled,
/// or when the run is over and every wait is released (so that every effect ends and the store can be checked
/// empty).
final class LongLivingWaits: Sendable {
  private let state = LockIsolated<(released: Bool, waits: [UInt64: AsyncStream<Int>.Continuation], next: UInt64)>(
    (false, [:], 0))

  /// Waits until the task is cancelled or the waits are released.
  func wait() async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let id: UInt64? = state.withLock {
      if $0.released { return nil }
      $0.next += 1
      $0.waits[$0.next] = continuation
      return $0.next
    }
    guard let id else { return }
    for await _ in stream {}
    _ = state.withLock { $0.waits.removeValue(forKey: id) }
  }

  func releaseAll() {
    let waits = state.withLock { state in
      state.released = true
      defer { state.waits.removeAll() }
      return Array(state.waits.values)
    }
    for wait in waits { wait.finish() }
  }
}

import Dispatch
import Synchronization

/// The events one traced store has queued for its ``StoreTracer``: appended by the store's instrument, taken and
/// formatted in batches on a background queue.
///
/// Appending is the traced store's own cost on every `send`, so it takes no lock of its own: every instrument call
/// runs with the store's lock held, and a batch is taken with the same lock (``StoreLock``), so an append is an array
/// append and a count check. The first event of a batch schedules the batch's drain `delay` later rather than at
/// once: a burst of actions becomes one batch, one wakeup of the queue, formatted after the burst instead of on the
/// other core while the sender runs. ``flush()`` drains at once. At most `limit` events wait; past that they are
/// dropped and the drain is told how many.
///
/// ```swift
/// let events = TraceEvents<Counter.Action>(limit: 100_000) { items, dropped in /* format, write */ }
/// events.attach(store.lock)                       // when the store starts
/// events.append(.action(action, reduction))       // from the instrument, with the store's lock held
/// events.flush()                                  // everything appended so far is drained
/// ```
@usableFromInline
final class TraceEvents<Action: Sendable>: @unchecked Sendable {
  @usableFromInline
  struct Pending {
    @usableFromInline var items: [TraceItem<Action>] = []
    @usableFromInline var dropped = 0
    @usableFromInline var isScheduled = false
  }

  /// How long the first event of a batch waits for the others before the batch is drained.
  static var delay: DispatchTimeInterval { .milliseconds(10) }

  @usableFromInline let limit: Int
  /// Guarded by the store's lock (or touched by one thread at a time before the store starts and after it ends).
  /// Behind a pointer: a class's stored `var` would cost a dynamic exclusivity check per append.
  @usableFromInline let pending: UnsafeMutablePointer<Pending>
  /// The batch being drained; touched only on `queue`.
  private let draining: UnsafeMutablePointer<[TraceItem<Action>]>
  private let queue = DispatchQueue(label: "Unidirectional.StoreTracer", qos: .utility)
  private let drain: ([TraceItem<Action>], _ dropped: Int) -> Void
  /// The traced store's lock, once it has started.
  private let storeLock = Mutex<StoreLock?>(nil)
  /// Orders the drain and the appends from outside among themselves once the store is gone (or before it started),
  /// when there is no store lock to take: the tracer closing appends while a scheduled drain may be running.
  private let outsideLock = Lock()

  init(limit: Int, drain: @escaping ([TraceItem<Action>], _ dropped: Int) -> Void) {
    self.limit = limit
    self.drain = drain
    pending = .allocate(capacity: 1)
    pending.initialize(to: Pending())
    draining = .allocate(capacity: 1)
    draining.initialize(to: [])
  }

  deinit {
    pending.deinitialize(count: 1)
    pending.deallocate()
    draining.deinitialize(count: 1)
    draining.deallocate()
  }

  /// Takes batches with `lock` from now on. Call as the store starts, before it appends.
  func attach(_ lock: StoreLock) {
    storeLock.withLock { $0 = lock }
  }

  /// Queues `item`; when `limit` events already wait it is dropped (and counted), unless `evenIfFull`. Call with the
  /// store's lock held (or once the store is gone).
  @inlinable
  func append(_ item: TraceItem<Action>, evenIfFull: Bool = false) {
    guard pending.pointee.items.count < limit || evenIfFull else {
      pending.pointee.dropped += 1
      return
    }
    pending.pointee.items.append(item)
    if !pending.pointee.isScheduled {
      pending.pointee.isScheduled = true
      scheduleDrain()
    }
  }

  @usableFromInline
  func scheduleDrain() {
    queue.asyncAfter(deadline: .now() + Self.delay) { [self] in drainPending() }
  }

  /// Appends `item` from outside the store's processing (the tracer closing): with the store's lock, or without once
  /// the store is gone.
  func appendFromOutside(_ item: TraceItem<Action>) {
    withStoreLock { append(item, evenIfFull: true) }
  }

  /// Returns once every event appended before the call has been drained. Not from inside the traced store's
  /// processing (a reducer, an instrument): a drain in progress on the queue may be waiting for its lock.
  func flush() {
    // Drained on the queue, not on the caller's thread (`sync` would run the block here).
    queue.async { [self] in drainPending() }
    queue.sync {}
  }

  /// Runs `body` with the store's lock held, and with `outsideLock`: once the store is gone (or before it started)
  /// the store no longer appends, but the tracer closing (``appendFromOutside(_:)``) and a scheduled drain still
  /// meet here.
  private func withStoreLock<T>(_ body: () -> T) -> T {
    let lock = storeLock.withLock { $0 }
    if let lock, let result = lock.withLock({ outsideLock.withLock(body) }) { return result }
    return outsideLock.withLock(body)
  }

  /// Takes every pending event and drains them. On `queue`.
  private func drainPending() {
    let dropped = withStoreLock { () -> Int in
      swap(&pending.pointee.items, &draining.pointee)
      defer {
        pending.pointee.dropped = 0
        pending.pointee.isScheduled = false
      }
      return pending.pointee.dropped
    }
    // A flush may have drained the batch a scheduled drain was for.
    guard !draining.pointee.isEmpty || dropped > 0 else { return }
    drain(draining.pointee, dropped)
    draining.pointee.removeAll(keepingCapacity: true)
  }
}

import Dispatch

/// Marks each drain queue with its owner, so code can tell it runs on it.
private let drainQueueKey = DispatchSpecificKey<ObjectIdentifier>()

/// Hands items from the threads that produce them to one background queue, in order, so the expensive part
/// (formatting, writing) never runs on a store's sending thread.
///
/// Appending is a short locked append; the first item of a batch schedules the drain, which takes everything
/// pending at once, ``delay`` later: a burst of items becomes one batch and one wakeup of the queue (waking it costs
/// the appending thread about 5 µs, scheduling a later drain well under 1 µs), drained after the burst rather than on
/// another core while it runs. ``flush()`` drains at once. At most `limit` items wait: past that, items are dropped
/// and the drain is told how many, so a slow terminal or disk cannot slow the store down or grow memory without
/// bound.
///
/// The producer side is the sender's cost, so it is kept to the lock and an array append: the mutable state sits
/// behind a pointer (a class's stored `var` would pay a dynamic exclusivity check on every append, about 190
/// instructions), and the two arrays are swapped rather than reallocated, so a batch reuses the capacity of the last.
/// `append` is inlinable, so a producer whose types are concrete (a closure made where a tracer meets the app's
/// reducer) appends through specialized code.
@usableFromInline
final class DrainQueue<Item>: FlushableAtExit, @unchecked Sendable {
  @usableFromInline
  struct Pending {
    @usableFromInline var items: [Item] = []
    @usableFromInline var dropped = 0
    @usableFromInline var isScheduled = false
  }

  private let queue: DispatchQueue
  @usableFromInline let limit: Int
  private let drain: ([Item], _ dropped: Int) -> Void
  @usableFromInline let lock = Lock()
  /// Guarded by `lock`.
  @usableFromInline let pending: UnsafeMutablePointer<Pending>
  /// The batch being drained; touched only on `queue`.
  private let draining: UnsafeMutablePointer<[Item]>

  init(label: String, limit: Int, drain: @escaping ([Item], _ dropped: Int) -> Void) {
    self.queue = DispatchQueue(label: label, qos: .utility)
    self.limit = limit
    self.drain = drain
    pending = .allocate(capacity: 1)
    pending.initialize(to: Pending())
    draining = .allocate(capacity: 1)
    draining.initialize(to: [])
    queue.setSpecific(key: drainQueueKey, value: ObjectIdentifier(self))
  }

  deinit {
    pending.deinitialize(count: 1)
    pending.deallocate()
    draining.deinitialize(count: 1)
    draining.deallocate()
  }

  /// Whether the caller runs on this queue's drain.
  var isCurrent: Bool {
    DispatchQueue.getSpecific(key: drainQueueKey) == ObjectIdentifier(self)
  }

  /// Queues `item`; when `limit` items already wait it is dropped (and counted), unless `evenIfFull`.
  @inlinable
  func append(_ item: Item, evenIfFull: Bool = false) {
    lock.lock()
    guard pending.pointee.items.count < limit || evenIfFull else {
      pending.pointee.dropped += 1
      lock.unlock()
      return
    }
    pending.pointee.items.append(item)
    let schedules = !pending.pointee.isScheduled
    pending.pointee.isScheduled = true
    lock.unlock()
    if schedules { scheduleDrain() }
  }

  /// How long the first item of a batch waits for the others before the batch is drained.
  static var delay: DispatchTimeInterval { .milliseconds(10) }

  @usableFromInline
  func scheduleDrain() {
    queue.asyncAfter(deadline: .now() + Self.delay) { self.drainPending() }
  }

  /// Returns once everything appended before the call has been drained.
  func flush() {
    // Drained on the queue, not on the caller's thread (`sync` would run the block here).
    queue.async { self.drainPending() }
    queue.sync {}
  }

  func flushAtExit() {
    if !isCurrent { flush() }
  }

  private func drainPending() {
    lock.lock()
    swap(&pending.pointee.items, &draining.pointee)
    let droppedCount = pending.pointee.dropped
    pending.pointee.dropped = 0
    pending.pointee.isScheduled = false
    lock.unlock()
    // A flush may have drained the batch a scheduled drain was for.
    guard !draining.pointee.isEmpty || droppedCount > 0 else { return }
    drain(draining.pointee, droppedCount)
    draining.pointee.removeAll(keepingCapacity: true)
  }
}

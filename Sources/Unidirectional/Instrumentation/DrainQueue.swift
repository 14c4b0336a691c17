import Dispatch

/// Marks each drain queue with its owner, so code can tell it runs on it.
private let drainQueueKey = DispatchSpecificKey<ObjectIdentifier>()

/// Hands items from the threads that produce them to one background queue, in order, so the expensive part
/// (formatting, writing) never runs on a store's sending thread.
///
/// Appending is a short locked append; the first item of a batch schedules the drain, which takes everything
/// pending at once. At most `limit` items wait: past that, items are dropped and the drain is told how many, so a
/// slow terminal or disk cannot slow the store down or grow memory without bound.
final class DrainQueue<Item>: @unchecked Sendable {
  private let queue: DispatchQueue
  private let limit: Int
  private let drain: ([Item], _ dropped: Int) -> Void
  // Guarded by `lock`.
  private let lock = Lock()
  private var pending: [Item] = []
  private var dropped = 0
  private var isScheduled = false

  init(label: String, limit: Int, drain: @escaping ([Item], _ dropped: Int) -> Void) {
    self.queue = DispatchQueue(label: label, qos: .utility)
    self.limit = limit
    self.drain = drain
    queue.setSpecific(key: drainQueueKey, value: ObjectIdentifier(self))
  }

  /// Whether the caller runs on this queue's drain.
  var isCurrent: Bool {
    DispatchQueue.getSpecific(key: drainQueueKey) == ObjectIdentifier(self)
  }

  /// Queues `item`; when `limit` items already wait it is dropped (and counted), unless `evenIfFull`.
  func append(_ item: Item, evenIfFull: Bool = false) {
    lock.lock()
    guard pending.count < limit || evenIfFull else {
      dropped += 1
      lock.unlock()
      return
    }
    pending.append(item)
    let schedules = !isScheduled
    isScheduled = true
    lock.unlock()
    if schedules { queue.async { self.drainPending() } }
  }

  /// Returns once everything appended before the call has been drained.
  func flush() {
    queue.sync {}
  }

  private func drainPending() {
    lock.lock()
    let items = pending
    let droppedCount = dropped
    pending = []
    dropped = 0
    isScheduled = false
    lock.unlock()
    drain(items, droppedCount)
  }
}

import Foundation

/// The change printers alive in this process, flushed when it exits normally — returns from `main` or calls
/// `exit` — so a short-lived program prints every change it made without knowing to call
/// ``ChangePrinter/flush()``.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter().printChanges() }
/// store.send(.incrementTapped)
/// // main returns: the change is printed before the process ends.
/// ```
///
/// The hook is installed with `atexit` when the first printer is made; it runs before the C library flushes
/// standard output, so what `ChangePrinter.standardOutput` prints is written too. A process ended by a signal or
/// `_exit` skips it.
///
/// It holds each printer's queue weakly, not the printer: a weakly referenced object gets a side table, and every
/// retain and release of it takes the slow path — the printer is retained on each printed `send` (about 125
/// instructions more per action), its queue is not.
enum PrintersAtExit {
  private static let queues: LockIsolated<[WeakQueue]> = {
    atexit { PrintersAtExit.flushAll() }
    return LockIsolated([])
  }()

  /// Drains `queue` at exit while it lives.
  static func register(_ queue: some FlushableAtExit) {
    let entry = WeakQueue(queue)
    queues.withLock { queues in
      queues.removeAll { $0.queue == nil }
      queues.append(entry)
    }
  }

  /// Writes everything queued on every live printer (the `atexit` hook).
  static func flushAll() {
    for queue in queues.withLock({ $0.compactMap(\.queue) }) { queue.flushAtExit() }
  }

  private final class WeakQueue: @unchecked Sendable {
    weak var queue: (any FlushableAtExit)?
    init(_ queue: any FlushableAtExit) { self.queue = queue }
  }
}

/// A queue whose pending work must be done before the process exits.
protocol FlushableAtExit: AnyObject, Sendable {
  /// Drains what is pending, unless called from the queue's own drain (where waiting would deadlock).
  func flushAtExit()
}

import Synchronization

/// The values shared references had at each step of a store, for an instrument that copies the store's state at
/// each step and encodes the copies later, on another thread (an action recorder's writer).
///
/// A copy of a state holds its `@Shared` values by reference: encoded later, it would show the values of now, changed
/// by every step since (issue 45's false divergence). While a history lives, each shared value keeps the value it had
/// before its first change after each step, and ``withValues(atStep:_:)`` makes the encoding of a copy read the
/// values as of its step.
///
/// ```swift
/// let history = SharedValueHistory()
/// // send path, with the store's lock held:
/// copies.append(state); history.stepDidEnd()                  // step n
/// // writer thread, later:
/// try history.withValues(atStep: n) { json = try encode(copies[n - 1]) }
/// history.forget(throughStep: n)
/// history.end()                                               // when the recording ends
/// ```
///
/// Cost: while no history lives, a change to a shared value reads one atomic counter. While one does, every change
/// to any shared value of the process copies the value before the first change after each step (kept until
/// ``forget(throughStep:)``); reads pay nothing.
package final class SharedValueHistory: @unchecked Sendable {
  private struct Entry {
    /// The number of steps ended when the change was made.
    let afterStep: UInt64
    /// The value before the change: the value at the end of every step from the previous entry's to this one's.
    let value: Any
  }

  private struct Changes {
    /// Not kept alive (a shared value whose last use goes away saves and goes, recorded or not): an entry whose root
    /// is gone belongs to no live value, and a new value at the same address starts its own.
    weak var root: AnyObject?
    var entries: [Entry]
  }

  /// How many steps have ended: written only by the store's thread that holds its lock.
  private let steps = Atomic<UInt64>(0)
  private let lock = Lock()
  /// Guarded by `lock`.
  private var changes: [ObjectIdentifier: Changes] = [:]

  /// A history that records from now on.
  package init() {
    Self.registry.withLock { $0.append(WeakHistory(history: self)) }
    Self.liveCount.add(1, ordering: .relaxed)
  }

  deinit { end() }

  /// Stops recording: shared values no longer report their changes to this history.
  package func end() {
    let removed = Self.registry.withLock { histories in
      let before = histories.count
      histories.removeAll { $0.history === self || $0.history == nil }
      return before - histories.count
    }
    if removed > 0 { Self.liveCount.subtract(removed, ordering: .relaxed) }
    let released = lock.withLock {
      defer { changes.removeAll() }
      return changes
    }
    _ = released  // released outside the lock: a value's deinit may take other locks
  }

  /// Marks the end of a step: the state copied now is the one ``withValues(atStep:_:)`` gives step `n` for, the `n`th
  /// call. Call from one thread at a time (the store's, with its lock held).
  @inline(__always)
  package func stepDidEnd() {
    steps.store(steps.load(ordering: .relaxed) &+ 1, ordering: .releasing)
  }

  /// Runs `body` (an encoding of a state copied at step `step`) with every shared value reading its value as of the
  /// end of that step.
  ///
  /// Not generic: a recorder's writer calls it for every state it encodes.
  package func withValues(atStep step: UInt64, _ body: () throws -> Void) rethrows {
    let context = ThreadContext.current(key: ThreadContext.key)
    let outer = context.pointee.sharedValuesAsOf
    context.pointee.sharedValuesAsOf = (Unmanaged.passUnretained(self), step)
    defer { context.pointee.sharedValuesAsOf = outer }
    return try body()
  }

  /// Drops what only steps up to `step` need: no copy of a state at those steps is encoded any more.
  package func forget(throughStep step: UInt64) {
    let released = lock.withLock { () -> [Changes] in
      var released: [Changes] = []
      for (id, var change) in changes {
        let kept = change.entries.drop { $0.afterStep <= step }
        guard kept.count < change.entries.count else { continue }
        if kept.isEmpty {
          changes[id] = nil
          released.append(change)
        } else {
          change.entries = Array(kept)
          changes[id] = change
        }
      }
      return released
    }
    _ = released
  }

  // MARK: Shared values

  /// The value `root` had at the end of step `step`: `nil` if it has not changed since (its current value is it).
  /// Called with the root's lock held.
  func value(of root: AnyObject, atStep step: UInt64) -> Any? {
    lock.withLock {
      guard let change = changes[ObjectIdentifier(root)], change.root === root else { return nil }
      return change.entries.first { $0.afterStep >= step }?.value
    }
  }

  private func note(_ root: AnyObject, before value: () -> Any) {
    let step = steps.load(ordering: .acquiring)
    lock.withLock {
      let id = ObjectIdentifier(root)
      if let known = changes[id], known.root !== root { changes[id] = nil }  // a value gone, its address reused
      // Only the first change after a step: the value before it is the value at the end of that step.
      if let last = changes[id]?.entries.last, last.afterStep == step { return }
      changes[id, default: Changes(root: root, entries: [])].entries.append(Entry(afterStep: step, value: value()))
    }
  }

  /// Tells every live history that `root` is about to change from `value`. Called with the root's lock held.
  static func rootWillChange(_ root: AnyObject, from value: @autoclosure () -> Any) {
    guard liveCount.load(ordering: .relaxed) > 0 else { return }
    let histories = registry.withLock { $0.compactMap(\.history) }
    for history in histories { history.note(root, before: value) }
  }

  /// How many shared values (`Shared`, `SharedReader`) have been encoded on this thread: a value that encodes with
  /// this count changed holds some.
  package static var encodedOnThisThread: Int {
    ThreadContext.current(key: ThreadContext.key).pointee.sharedValuesEncoded
  }

  /// The history and step a shared value's encoding reads its value as of, on this thread.
  static var readingContext: (history: SharedValueHistory, step: UInt64)? {
    guard liveCount.load(ordering: .relaxed) > 0,
      let (history, step) = ThreadContext.current(key: ThreadContext.key).pointee.sharedValuesAsOf
    else { return nil }
    return (history.takeUnretainedValue(), step)
  }

  private static let liveCount = Atomic<Int>(0)
  private static let registry = Mutex<[WeakHistory]>([])
}

private struct WeakHistory {
  weak var history: SharedValueHistory?
}

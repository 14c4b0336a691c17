/// The effects started by one `send`, and every effect started by the actions they feed back: await it to wait
/// until they all finish, or cancel them all.
///
/// ```swift
/// let task = store.send(.startMonitoring)
/// // …
/// task.cancel()        // also cancels what the monitoring's actions started
/// await task.finish()
/// ```
public struct StoreTask: Sendable {
  let records: [EffectRecord]
  let deferred: DeferredEffects?

  init(records: [EffectRecord] = [], deferred: DeferredEffects? = nil) {
    self.records = records
    self.deferred = deferred
  }

  /// The handle of a send that started nothing (an action refused before it was reduced).
  package static var none: StoreTask { StoreTask() }

  /// Waits until every effect started by the action, and by the actions those effects fed back, has finished.
  public func finish() async {
    let records = await allRecords()
    guard let owner = records.first?.owner else { return }
    while true {
      let tasks = owner.unfinishedTasks(inTreesOf: records)
      if tasks.isEmpty { return }
      for task in tasks { await task.value }
    }
  }

  /// Cancels every effect started by the action, and by the actions those effects fed back; they feed back
  /// nothing more. Effects of other actions are untouched.
  public func cancel() {
    if let owner = records.first?.owner { owner.cancelTrees(records) }
    deferred?.cancel()
  }

  /// Whether any of those effects is still running.
  public var isRunning: Bool {
    if let owner = records.first?.owner, !owner.unfinishedTasks(inTreesOf: records).isEmpty { return true }
    return deferred?.isRunning ?? false
  }

  private func allRecords() async -> [EffectRecord] {
    guard let deferred else { return records }
    return await records + deferred.records()
  }
}

/// One running effect: the unit the store tracks for cancellation, teardown and the TestStore's checks.
///
/// Records form trees: the effects started by an action that an effect fed back are that effect's children, so
/// cancelling a `send` reaches everything it caused. Every `var` is guarded by the owner's lock.
final class EffectRecord: @unchecked Sendable {
  /// The action whose reduction started the effect (for messages).
  let action: any Sendable
  let cancelIDs: [CancelID]
  weak var owner: (any EffectOwner)?
  var id: UInt64 = 0
  /// The store's sequence number of the action that started it (for instruments; 0 without one).
  var sequence: UInt64 = 0
  var task: Task<Void, Never>?
  var isCancelled = false
  var isFinished = false
  /// A test no longer waits for this effect (`skipInFlightEffects`); it still runs.
  var isSkipped = false
  /// The effect that fed back the action which started this one.
  weak var parent: EffectRecord?
  /// Effects started by actions this one fed back, until they and their own children have finished.
  var children: [UInt64: EffectRecord] = [:]

  init(action: any Sendable, cancelIDs: [CancelID], owner: any EffectOwner) {
    self.action = action
    self.cancelIDs = cancelIDs
    self.owner = owner
  }

  /// The tasks of `records` and their descendants that have not finished. Call with the store's lock held.
  /// Non-generic on purpose: in the store's generic code the array and optional types here were looked up at run
  /// time on every call (about 140 instructions of a `.run` round trip).
  static func unfinishedTasks(inTreesOf records: [EffectRecord]) -> [Task<Void, Never>] {
    var tasks: [Task<Void, Never>] = []
    for record in records {
      record.forEachInTree { record in
        if !record.isFinished, let task = record.task { tasks.append(task) }
      }
    }
    return tasks
  }

  /// Calls `body` on this record and every descendant still linked to it.
  func forEachInTree(_ body: (EffectRecord) -> Void) {
    body(self)
    // Most effects start nothing that outlives them: no work list (an allocation) for a record without children.
    guard !children.isEmpty else { return }
    var pending = Array(children.values)
    while let record = pending.popLast() {
      body(record)
      pending.append(contentsOf: record.children.values)
    }
  }

  /// Unlinks finished records without running descendants, so a long-lived effect's tree stays small.
  func pruneFromTree() {
    var record = self
    while record.isFinished, record.children.isEmpty, let parent = record.parent {
      parent.children.removeValue(forKey: record.id)
      record.parent = nil
      record = parent
    }
  }
}

/// A store core that owns effect records.
protocol EffectOwner: AnyObject, Sendable {
  func cancelTrees(_ records: [EffectRecord])
  func unfinishedTasks(inTreesOf records: [EffectRecord]) -> [Task<Void, Never>]
}

/// The effects of an action sent while the store was reducing on the same thread, filled in once it is reduced.
final class DeferredEffects: @unchecked Sendable {
  private let lock = Lock()
  private var resolved: [EffectRecord]?
  private var isCancelled = false
  private var waiters: [UnsafeContinuation<[EffectRecord], Never>] = []

  func resolve(_ records: [EffectRecord]) {
    let (waiters, cancelled) = lock.withLock {
      resolved = records
      defer { self.waiters.removeAll() }
      return (self.waiters, isCancelled)
    }
    if cancelled, let owner = records.first?.owner { owner.cancelTrees(records) }
    for waiter in waiters { waiter.resume(returning: records) }
  }

  func records() async -> [EffectRecord] {
    await withUnsafeContinuation { continuation in
      let ready: [EffectRecord]? = lock.withLock {
        if let resolved { return resolved }
        waiters.append(continuation)
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  func cancel() {
    let records = lock.withLock {
      isCancelled = true
      return resolved ?? []
    }
    if let owner = records.first?.owner { owner.cancelTrees(records) }
  }

  var isRunning: Bool {
    let records = lock.withLock { resolved }
    guard let records else { return true }
    guard let owner = records.first?.owner else { return false }
    return !owner.unfinishedTasks(inTreesOf: records).isEmpty
  }
}

/// The effects started by one `send`: await it to wait until they finish, or cancel them.
///
/// ```swift
/// let task = store.send(.startMonitoring)
/// // …
/// task.cancel()
/// await task.finish()
/// ```
public struct StoreTask: Sendable {
  let records: [EffectRecord]
  let deferred: DeferredEffects?

  init(records: [EffectRecord] = [], deferred: DeferredEffects? = nil) {
    self.records = records
    self.deferred = deferred
  }

  /// Waits until every effect started by the action has finished.
  public func finish() async {
    for record in await allRecords() { await record.task?.value }
  }

  /// Cancels every effect started by the action; they feed back nothing more.
  public func cancel() {
    for record in records { record.cancel() }
    deferred?.cancel()
  }

  /// Whether the action started any effect that is still running.
  public var isRunning: Bool {
    records.contains { $0.isRunning } || (deferred?.isRunning ?? false)
  }

  private func allRecords() async -> [EffectRecord] {
    guard let deferred else { return records }
    return await records + deferred.records()
  }
}

/// One running effect: the unit the store tracks for cancellation, teardown and the TestStore's checks.
final class EffectRecord: @unchecked Sendable {
  /// The action whose reduction started the effect (for messages).
  let action: any Sendable
  let cancelIDs: [CancelID]
  weak var owner: (any EffectOwner)?
  // Guarded by the owner's lock.
  var id: UInt64 = 0
  var task: Task<Void, Never>?
  var isCancelled = false
  var isFinished = false

  init(action: any Sendable, cancelIDs: [CancelID], owner: any EffectOwner) {
    self.action = action
    self.cancelIDs = cancelIDs
    self.owner = owner
  }

  func cancel() {
    owner?.cancel([self])
  }

  var isRunning: Bool {
    owner?.isRunning(self) ?? false
  }
}

/// A store core that can cancel effect records.
protocol EffectOwner: AnyObject, Sendable {
  func cancel(_ records: [EffectRecord])
  func isRunning(_ record: EffectRecord) -> Bool
}

/// The effects of an action that was queued behind another thread's reduction, filled in once it is reduced.
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
    if cancelled { for record in records { record.cancel() } }
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
    for record in records { record.cancel() }
  }

  var isRunning: Bool {
    lock.withLock { resolved.map { $0.contains { $0.isRunning } } ?? true }
  }
}

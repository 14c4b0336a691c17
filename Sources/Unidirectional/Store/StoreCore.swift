/// What a ``Store`` needs from whatever runs its reducer: the root runtime, or a scope of a parent.
class StoreCore<State, Action: Sendable>: @unchecked Sendable {
  func send(_ action: Action) -> StoreTask { fatalError("abstract") }
  func withState<T>(_ body: (borrowing State) -> T) -> T { fatalError("abstract") }
  /// The current state, then the state after every reduced action, each passed through `transform`.
  func stream<T: Sendable>(_ transform: @escaping (borrowing State) -> T) -> AsyncStream<T> { fatalError("abstract") }
  /// Marks the state as read through an observation-tracked path, so later changes notify observers.
  func trackAccess() {}
}

/// Runs a root reducer: the state, the action queue and every effect the store owns.
///
/// Hot path (`send` of an action whose reducer returns `.none`): one uncontended mutex, one thread-local load,
/// the reducer call on state held behind a pointer (no exclusivity checks), no allocation, no task, no syscall.
/// Effects feed actions back synchronously from their own task: no actor hop.
final class RootCore<State, Action: Sendable>: StoreCore<State, Action>, EffectOwner, @unchecked Sendable {
  private let reducer: any Reducer<State, Action>
  private let state: UnsafeMutablePointer<State>
  private let lock = Lock()
  private let mutable: UnsafeMutablePointer<Mutable>
  // The flags the hot path reads live in a non-generic struct: touching a generic one from this unspecialized
  // code instantiates its metadata on every call (measured: 60% of `send`).
  private let flags: UnsafeMutablePointer<Flags>
  let scope: ReduceScope
  private let unmanagedScope: Unmanaged<ReduceScope>
  private let threadKey = ThreadContext.key
  let runtime: TestRuntime?
  private let onReduce: ((Action, ActionOrigin, borrowing State) -> Void)?
  private let observationHook: (@Sendable () -> Void)?

  private struct Queued {
    let action: Action
    let origin: ActionOrigin
    let record: EffectRecord?
    let deferred: DeferredEffects?
  }

  /// What the hot path checks; touched only with `lock` held.
  private struct Flags {
    var isDraining = false
    var isInvalidated = false
    var isObserved = false
    var hasStreams = false
    var hasQueued = false
  }

  /// Everything else that changes after init; touched only with `lock` held.
  private struct Mutable {
    var queue: [Queued] = []
    var queueHead = 0
    var nextEffectID: UInt64 = 1
    var effects: [UInt64: EffectRecord] = [:]
    var cancellables: [CancelID: Set<UInt64>] = [:]
    var nextStreamID = 0
    var streams: [Int: StateSubscriber] = [:]
  }

  init(
    initialState: State,
    reducer: any Reducer<State, Action>,
    dependencies: DependencyValues,
    runtime: TestRuntime?,
    onReduce: ((Action, ActionOrigin, borrowing State) -> Void)?,
    observationHook: (@Sendable () -> Void)?
  ) {
    self.reducer = reducer
    self.state = .allocate(capacity: 1)
    self.state.initialize(to: initialState)
    self.mutable = .allocate(capacity: 1)
    self.mutable.initialize(to: Mutable())
    self.flags = .allocate(capacity: 1)
    self.flags.initialize(to: Flags())
    self.scope = ReduceScope(values: dependencies)
    self.unmanagedScope = Unmanaged.passUnretained(scope)
    self.runtime = runtime
    self.onReduce = onReduce
    self.observationHook = observationHook
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
    mutable.deinitialize(count: 1)
    mutable.deallocate()
    flags.deallocate()
  }

  // MARK: Sending

  override func send(_ action: Action) -> StoreTask {
    send(action, origin: .sent, record: nil)
  }

  @inline(__always)
  func send(_ action: Action, origin: ActionOrigin, record: EffectRecord?) -> StoreTask {
    lock.lock()
    let flags = self.flags.pointee
    if record != nil || flags.isDraining || flags.isInvalidated {
      return sendSlowly(action, origin: origin, record: record)
    }
    let effect = reduceLocked(action, origin: origin)
    if effect.isNone {
      lock.unlock()
      if flags.isObserved { observationHook?() }
      return StoreTask()
    }
    return runEffects(effect, of: action, notify: flags.isObserved)
  }

  /// Continues `send` once the reducer returned an effect: the lock is held on entry.
  @inline(never)
  private func runEffects(_ effect: Effect<Action>, of action: Action, notify: Bool) -> StoreTask {
    // A chain of `.send` effects is reduced right here, the lock still held: nothing can come in between.
    var effect = effect
    var action = action
    while case let .send(next) = effect.node {
      action = next
      effect = reduceLocked(next, origin: .received)
      if effect.isNone {
        lock.unlock()
        if notify { observationHook?() }
        return StoreTask()
      }
    }
    flags.pointee.isDraining = true
    lock.unlock()
    let records = runCascade(effect, startedBy: action)
    drainQueue()
    if notify { observationHook?() }
    return StoreTask(records: records)
  }

  /// `send` from an effect, or while another thread is reducing: the lock is held on entry.
  @inline(never)
  private func sendSlowly(_ action: Action, origin: ActionOrigin, record: EffectRecord?) -> StoreTask {
    if let record, record.isCancelled || flags.pointee.isInvalidated {
      lock.unlock()
      return StoreTask()
    }
    if flags.pointee.isInvalidated {
      lock.unlock()
      return StoreTask()
    }
    if flags.pointee.isDraining {
      let deferred = origin == .sent ? DeferredEffects() : nil
      mutable.pointee.queue.append(Queued(action: action, origin: origin, record: record, deferred: deferred))
      flags.pointee.hasQueued = true
      lock.unlock()
      return StoreTask(deferred: deferred)
    }
    let effect = reduceLocked(action, origin: origin)
    let notify = flags.pointee.isObserved
    if effect.isNone {
      lock.unlock()
      if notify { observationHook?() }
      return StoreTask()
    }
    return runEffects(effect, of: action, notify: notify)
  }

  /// Reduces one action. Call with `lock` held.
  @inline(__always)
  private func reduceLocked(_ action: Action, origin: ActionOrigin) -> Effect<Action> {
    let context = ThreadContext.current(key: threadKey)
    let outer = context.pointee.activeScope
    context.pointee.activeScope = unmanagedScope
    let effect = reducer.reduce(into: &state.pointee, action: action)
    context.pointee.activeScope = outer
    if let onReduce { onReduce(action, origin, state.pointee) }
    if flags.pointee.hasStreams {
      for subscriber in mutable.pointee.streams.values { subscriber.yield(state.pointee) }
    }
    return effect
  }

  /// Processes queued actions until the queue is empty, then stops draining.
  private func drainQueue() {
    while true {
      lock.lock()
      if !flags.pointee.hasQueued {
        flags.pointee.isDraining = false
        lock.unlock()
        return
      }
      let head = mutable.pointee.queueHead
      guard head < mutable.pointee.queue.count else {
        mutable.pointee.queue.removeAll(keepingCapacity: true)
        mutable.pointee.queueHead = 0
        flags.pointee.hasQueued = false
        flags.pointee.isDraining = false
        lock.unlock()
        return
      }
      let item = mutable.pointee.queue[head]
      mutable.pointee.queueHead = head + 1
      if let record = item.record, record.isCancelled || flags.pointee.isInvalidated {
        lock.unlock()
        item.deferred?.resolve([])
        continue
      }
      let effect = reduceLocked(item.action, origin: item.origin)
      lock.unlock()
      let records = runCascade(effect, startedBy: item.action)
      item.deferred?.resolve(records)
    }
  }

  /// Starts `effect`, then reduces the actions it sends synchronously, depth-first, with their own effects.
  private func runCascade(_ effect: Effect<Action>, startedBy action: Action) -> [EffectRecord] {
    if effect.isNone { return [] }
    var records: [EffectRecord] = []
    var immediate: [Action] = []
    start(effect, startedBy: action, cancelIDs: [], records: &records, immediate: &immediate)
    for next in immediate {
      lock.lock()
      if flags.pointee.isInvalidated {
        lock.unlock()
        break
      }
      let nextEffect = reduceLocked(next, origin: .received)
      lock.unlock()
      records += runCascade(nextEffect, startedBy: next)
    }
    return records
  }

  private func start(
    _ effect: Effect<Action>,
    startedBy action: Action,
    cancelIDs: [CancelID],
    records: inout [EffectRecord],
    immediate: inout [Action]
  ) {
    switch effect.node {
    case .none:
      return
    case let .send(next):
      immediate.append(next)
    case let .run(run):
      records.append(
        spawn(cancelIDs: cancelIDs, startedBy: action) { core, record in
          await core.execute(run, record: record)
        })
    case let .merge(effects):
      for effect in effects {
        start(effect, startedBy: action, cancelIDs: cancelIDs, records: &records, immediate: &immediate)
      }
    case .concatenate:
      records.append(
        spawn(cancelIDs: cancelIDs, startedBy: action) { core, record in
          await core.runToCompletion(effect, record: record)
        })
    case let .cancellable(id, cancelInFlight, inner):
      if cancelInFlight { cancel(id: id) }
      start(inner, startedBy: action, cancelIDs: cancelIDs + [id], records: &records, immediate: &immediate)
    case let .cancel(id):
      cancel(id: id)
    }
  }

  // MARK: Effects

  private func spawn(
    cancelIDs: [CancelID],
    startedBy action: Action,
    body: @escaping @Sendable (RootCore, EffectRecord) async -> Void
  ) -> EffectRecord {
    let record = EffectRecord(action: action, cancelIDs: cancelIDs, owner: self)
    lock.withLock {
      let id = mutable.pointee.nextEffectID
      mutable.pointee.nextEffectID += 1
      record.id = id
      mutable.pointee.effects[id] = record
      for cancelID in cancelIDs { mutable.pointee.cancellables[cancelID, default: []].insert(id) }
    }
    let task: Task<Void, Never>
    if let runtime {
      runtime.taskStarted()
      task = Task(executorPreference: runtime) {
        await TestRuntime.$current.withValue(runtime) { await body(self, record) }
        self.finish(record)
        runtime.taskFinished()
      }
    } else {
      task = Task {
        await body(self, record)
        self.finish(record)
      }
    }
    let cancelled = lock.withLock {
      record.task = task
      return record.isCancelled
    }
    if cancelled { task.cancel() }
    return record
  }

  /// Runs one `.run` effect in the current task.
  private func execute(_ run: Effect<Action>.Run, record: EffectRecord) async {
    let send = Send<Action> { [self] action in self.deliver(action, from: record) }
    await DependencyValues.$taskValues.withValue(run.dependencies ?? scope.values) {
      do {
        try await run.operation(send)
      } catch {
        if Task.isCancelled || error is CancellationError { return }
        if let handler = run.handler {
          await handler(error, send)
        } else {
          report(
            """
            An effect returned for the action \(describe(record.action)) threw an unhandled error: \(error). \
            Handle it with .run(operation:catch:) or inside the operation.
            """)
        }
      }
    }
  }

  /// Runs `effect` to its end inside one task: used for `concatenate`, where each part waits for the previous.
  private func runToCompletion(_ effect: Effect<Action>, record: EffectRecord) async {
    switch effect.node {
    case .none:
      return
    case let .send(action):
      deliver(action, from: record)
    case let .run(run):
      await execute(run, record: record)
    case let .merge(effects):
      await withTaskGroup(of: Void.self) { group in
        for effect in effects {
          group.addTask { await self.runToCompletion(effect, record: record) }
        }
      }
    case let .concatenate(effects):
      for effect in effects {
        if Task.isCancelled || isCancelled(record) { return }
        await runToCompletion(effect, record: record)
      }
    case let .cancellable(id, cancelInFlight, inner):
      // Inside a concatenation the whole concatenated effect answers to the inner id.
      if cancelInFlight { cancel(id: id, except: record) }
      let cancelled = lock.withLock {
        mutable.pointee.cancellables[id, default: []].insert(record.id)
        return record.isCancelled
      }
      if cancelled { return }
      await runToCompletion(inner, record: record)
    case let .cancel(id):
      cancel(id: id, except: record)
    }
  }

  /// Feeds an action from an effect back into the store.
  private func deliver(_ action: Action, from record: EffectRecord) {
    let finished = lock.withLock { record.isFinished }
    if finished {
      report(
        """
        An effect returned for the action \(describe(record.action)) sent \(describe(action)) after it had \
        finished. Send actions only while the effect's operation runs; don't let `send` escape it.
        """)
      return
    }
    _ = send(action, origin: .received, record: record)
  }

  private func finish(_ record: EffectRecord) {
    lock.withLock {
      record.isFinished = true
      mutable.pointee.effects.removeValue(forKey: record.id)
      for id in record.cancelIDs { removeCancellable(id, record.id) }
    }
  }

  private func removeCancellable(_ id: CancelID, _ recordID: UInt64) {
    guard var set = mutable.pointee.cancellables[id] else { return }
    set.remove(recordID)
    mutable.pointee.cancellables[id] = set.isEmpty ? nil : set
  }

  private func isCancelled(_ record: EffectRecord) -> Bool {
    lock.withLock { record.isCancelled }
  }

  func cancel(id: CancelID, except excluded: EffectRecord? = nil) {
    let records: [EffectRecord] = lock.withLock {
      guard let ids = mutable.pointee.cancellables[id] else { return [] }
      return ids.compactMap { mutable.pointee.effects[$0] }.filter { $0 !== excluded }
    }
    cancel(records)
  }

  func cancel(_ records: [EffectRecord]) {
    let tasks: [Task<Void, Never>] = lock.withLock {
      records.compactMap { record in
        record.isCancelled = true
        return record.task
      }
    }
    for task in tasks { task.cancel() }
  }

  func isRunning(_ record: EffectRecord) -> Bool {
    lock.withLock { !record.isFinished }
  }

  /// Cancels every effect and stops accepting actions from them: the store has been released.
  func invalidate() {
    let (records, streams) = lock.withLock {
      flags.pointee.isInvalidated = true
      defer {
        mutable.pointee.streams.removeAll()
        flags.pointee.hasStreams = false
      }
      return (Array(mutable.pointee.effects.values), Array(mutable.pointee.streams.values))
    }
    cancel(records)
    for stream in streams { stream.finish() }
  }

  /// Cancels every running effect (the store stays usable).
  func cancelAllEffects() {
    cancel(lock.withLock { Array(mutable.pointee.effects.values) })
  }

  /// The effects still running, oldest first.
  var runningEffects: [EffectRecord] {
    lock.withLock { mutable.pointee.effects.values.sorted { $0.id < $1.id } }
  }

  // MARK: Reading

  override func withState<T>(_ body: (borrowing State) -> T) -> T {
    lock.withLock { body(state.pointee) }
  }

  override func trackAccess() {
    lock.withLock { flags.pointee.isObserved = true }
  }

  override func stream<T: Sendable>(_ transform: @escaping (borrowing State) -> T) -> AsyncStream<T> {
    let (stream, continuation) = AsyncStream<T>.makeStream(bufferingPolicy: .unbounded)
    let subscriber = StateSubscriber(
      yield: { continuation.yield(transform($0)) },
      finish: { continuation.finish() })
    let id: Int? = lock.withLock {
      if flags.pointee.isInvalidated { return nil }
      let id = mutable.pointee.nextStreamID
      mutable.pointee.nextStreamID += 1
      mutable.pointee.streams[id] = subscriber
      flags.pointee.hasStreams = true
      subscriber.yield(state.pointee)
      return id
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      self.lock.withLock {
        self.mutable.pointee.streams.removeValue(forKey: id)
        self.flags.pointee.hasStreams = !self.mutable.pointee.streams.isEmpty
      }
    }
    return stream
  }

  /// A `states` subscriber: yields each state, transformed for a scope.
  struct StateSubscriber {
    let yield: (borrowing State) -> Void
    let finish: () -> Void
  }

  private func report(_ message: String) {
    scope.values.issueReporter.report(RuntimeIssue(message: message, fileID: "Unidirectional/Store", line: 0))
  }
}

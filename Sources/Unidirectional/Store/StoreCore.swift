/// What a ``Store`` needs from whatever runs its reducer: the root runtime, or a scope of a parent.
class StoreCore<State, Action: Sendable>: @unchecked Sendable {
  func send(_ action: Action) -> StoreTask { fatalError("abstract") }
  func withState<T>(_ body: (borrowing State) -> T) -> T { fatalError("abstract") }
  /// The current state, then the state after every batch of reduced actions, each passed through `transform`.
  func stream<T: Sendable>(_ transform: @escaping (borrowing State) -> T) -> AsyncStream<T> { fatalError("abstract") }
  /// Marks the state as read through an observation-tracked path, so later changes notify observers.
  func trackAccess() {}
}

/// What the hot path of a root core reads, outside any generic context: touching a generic struct from the
/// store's unspecialized code instantiates its metadata on every call (measured: 60% of `send`).
struct StoreFlags {
  var isInvalidated = false
  var isObserved = false
  var hasStreams = false
  /// Actions were sent on the reducing thread (re-entrantly) and wait in the queue.
  var hasQueued = false
  /// While a thread holds this store's lock to reduce: the store that thread held before, if any.
  var outerHeld: UnsafeMutablePointer<StoreFlags>?
}

/// Runs a root reducer: the state, the actions and every effect the store owns.
///
/// One rule orders everything: a `send` reduces its action and, **with the store's lock held throughout**, every
/// action fed back synchronously — `.send` effects, also inside `merge` and the synchronous leading parts of
/// `concatenate`, depth-first — and every action sent re-entrantly on the reducing thread (from a reducer, a
/// dependency's callback, an observer), each right after the action being reduced. Only then are state
/// readers and observers let in: nobody ever sees a parent that has not yet reacted to its child.
///
/// Hot path (`send` of an action whose reducer returns `.none`): one thread-local load, one uncontended mutex, the
/// reducer call on state held behind a pointer (no exclusivity checks), no allocation, no task, no syscall.
/// Effects feed actions back synchronously from their own task: no actor hop.
final class RootCore<State, Action: Sendable>: StoreCore<State, Action>, EffectOwner, CancellationRegistry,
  StoreLocking, @unchecked Sendable
{
  private let reducer: any Reducer<State, Action>
  private let state: UnsafeMutablePointer<State>
  private let lock = Lock()
  private let mutable: UnsafeMutablePointer<Mutable>
  private let flags: UnsafeMutablePointer<StoreFlags>
  /// The dependencies reducers read; replaced under the lock by ``setDependencies(_:)``.
  private let scopeSlot: UnsafeMutablePointer<Unmanaged<ReduceScope>>
  private let threadKey = ThreadContext.key
  let runtime: TestRuntime?
  /// Told about every reduction and effect (see ``StoreObserver``); a store without observers has a placeholder
  /// and no `observation`, and its send path pays nothing. Not optional: calling a method on a `let` needs no retain.
  private let observer: any StoreObserver<State, Action>
  /// The observer's bookkeeping, outside any generic context; allocated only for a real observer.
  private let observation: UnsafeMutablePointer<ObservationCounters>?
  private let observationHook: (@Sendable () -> Void)?

  /// An action sent on the reducing thread, waiting for the current action to finish.
  private struct Queued {
    let action: Action
    let origin: ActionOrigin
    let cause: EffectRecord?
    let deferred: DeferredEffects
  }

  /// Everything else that changes after init; touched only with `lock` held.
  private struct Mutable {
    var scope: ReduceScope
    var queue: [Queued] = []
    var nextEffectID: UInt64 = 1
    var effects: [UInt64: EffectRecord] = [:]
    var cancellables: [CancelID: Set<UInt64>] = [:]
    /// Work inside effects made cancellable by `withTaskCancellation(id:)`.
    var registeredWork: [CancelID: [UInt64: @Sendable () -> Void]] = [:]
    var nextWorkToken: UInt64 = 0
    var nextStreamID = 0
    var streams: [Int: StateSubscriber] = [:]
  }

  init(
    initialState: State,
    reducer: any Reducer<State, Action>,
    dependencies: DependencyValues,
    runtime: TestRuntime?,
    observer: (any StoreObserver<State, Action>)?,
    observationHook: (@Sendable () -> Void)?
  ) {
    self.reducer = reducer
    self.state = .allocate(capacity: 1)
    self.state.initialize(to: initialState)
    let scope = ReduceScope(values: dependencies)
    self.mutable = .allocate(capacity: 1)
    self.mutable.initialize(to: Mutable(scope: scope))
    self.scopeSlot = .allocate(capacity: 1)
    self.scopeSlot.initialize(to: Unmanaged.passUnretained(scope))
    self.flags = .allocate(capacity: 1)
    self.flags.initialize(to: StoreFlags())
    self.runtime = runtime
    self.observer = observer ?? Unobserved()
    self.observationHook = observationHook
    observation = observer.map { observer in
      let counters = UnsafeMutablePointer<ObservationCounters>.allocate(capacity: 1)
      counters.initialize(to: ObservationCounters(measuresTime: observer.measuresTime))
      return counters
    }
    super.init()
    guard observation != nil else { return }
    self.observer.storeDidStart(
      ObservedStore(
        initialState: initialState, dependencies: dependencies, reducerType: type(of: reducer),
        lock: StoreLock(self)))
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
    mutable.deinitialize(count: 1)
    mutable.deallocate()
    scopeSlot.deallocate()
    flags.deallocate()
    if let observation {
      observer.storeDidEnd()
      observation.deallocate()
    }
  }

  // MARK: Sending

  override func send(_ action: Action) -> StoreTask {
    send(action, origin: .sent, cause: nil)
  }

  /// Reduces `action` (sent by a host, or fed back by the effect `cause`).
  @inline(__always)
  func send(_ action: Action, origin: ActionOrigin, cause: EffectRecord?) -> StoreTask {
    let context = ThreadContext.current(key: threadKey)
    if context.pointee.heldStores != nil, isHeld(by: context) {
      return enqueue(action, origin: origin, cause: cause)
    }
    lock.lock()
    let flags = self.flags.pointee
    if cause != nil || flags.isInvalidated || flags.hasStreams {
      return sendSlowly(action, origin: origin, cause: cause, context: context)
    }
    hold(context)
    let effect = reduce(action, origin: origin, cause: nil, context: context)
    if effect.isNone && !self.flags.pointee.hasQueued {
      release(context)
      if flags.isObserved { observationHook?() }
      return StoreTask()
    }
    return runBatch(startingWith: effect, of: action, cause: nil, context: context)
  }

  /// `send` from an effect, to an invalidated store, or with state streams to feed: the lock is held on entry.
  @inline(never)
  private func sendSlowly(
    _ action: Action, origin: ActionOrigin, cause: EffectRecord?, context: UnsafeMutablePointer<ThreadContext>
  ) -> StoreTask {
    if flags.pointee.isInvalidated || cause?.isCancelled == true {
      lock.unlock()
      return StoreTask()
    }
    if let cause, cause.isFinished {
      lock.unlock()
      report(
        """
        An effect returned for the action \(describe(cause.action)) sent \(describe(action)) after it had \
        finished. Send actions only while the effect's operation runs; don't let `send` escape it.
        """)
      return StoreTask()
    }
    hold(context)
    let effect = reduce(action, origin: origin, cause: cause, context: context)
    return runBatch(startingWith: effect, of: action, cause: cause, context: context)
  }

  /// Queues an action sent on the thread that is reducing: it is reduced right after the current action.
  @inline(never)
  private func enqueue(_ action: Action, origin: ActionOrigin, cause: EffectRecord?) -> StoreTask {
    // This thread holds the lock: it is inside this store's batch.
    let deferred = DeferredEffects()
    if flags.pointee.isInvalidated {
      deferred.resolve([])
      return StoreTask(deferred: deferred)
    }
    mutable.pointee.queue.append(Queued(action: action, origin: origin, cause: cause, deferred: deferred))
    flags.pointee.hasQueued = true
    return StoreTask(deferred: deferred)
  }

  /// Reduces one action (fed back by the effect `cause`, if any). Call with the lock held by this thread.
  @inline(__always)
  private func reduce(
    _ action: Action, origin: ActionOrigin, cause: EffectRecord?, context: UnsafeMutablePointer<ThreadContext>
  ) -> Effect<Action> {
    let observation = self.observation
    var start: UInt64 = 0
    if let observation { start = ObservationCounters.willReduce(observation) }
    let outer = context.pointee.activeScope
    context.pointee.activeScope = scopeSlot.pointee
    let effect = reducer.reduce(into: &state.pointee, action: action)
    context.pointee.activeScope = outer
    if let observation { didReduce(action, origin: origin, cause: cause, start: start, observation: observation) }
    return effect
  }

  @inline(__always)
  private func hold(_ context: UnsafeMutablePointer<ThreadContext>) {
    flags.pointee.outerHeld = context.pointee.heldStores
    context.pointee.heldStores = flags
  }

  /// Stops holding: feeds state streams, then lets other threads in.
  @inline(__always)
  private func release(_ context: UnsafeMutablePointer<ThreadContext>) {
    context.pointee.heldStores = flags.pointee.outerHeld
    flags.pointee.outerHeld = nil
    lock.unlock()
  }

  /// Whether this thread holds this store's lock to reduce (possibly with other stores held inside it).
  private func isHeld(by context: UnsafeMutablePointer<ThreadContext>) -> Bool {
    var held = context.pointee.heldStores
    while let current = held {
      if current == flags { return true }
      held = current.pointee.outerHeld
    }
    return false
  }

  /// Runs `body` with the lock, or directly when this thread already holds it (a read from inside a reducer).
  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    let context = ThreadContext.current(key: threadKey)
    if context.pointee.heldStores != nil, isHeld(by: context) { return try body() }
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  // MARK: Batches

  /// The synchronous work of one `send`, done with the lock held.
  private enum Work {
    /// Reduce an action fed back synchronously or sent re-entrantly; its effects go to `list`.
    case reduce(Action, ActionOrigin, cause: EffectRecord?, list: Int, dropsIfCauseCancelled: Bool)
    /// Start an effect returned for `action` (the store's `sequence`-th reduction, for observers; the batch's
    /// `reduction`-th, for cancellations within the batch).
    case start(
      Effect<Action>, startedBy: Action, sequence: UInt64, cancelIDs: [CancelID], cause: EffectRecord?, list: Int,
      reduction: Int)
    /// Start the asynchronous rest of a concatenation, once its synchronous leading parts are done.
    case spawnRest(
      [Effect<Action>], startedBy: Action, sequence: UInt64, cancelIDs: [CancelID], cause: EffectRecord?, list: Int,
      reduction: Int)
  }

  /// What a batch collects while the lock is held and hands out after releasing it.
  private struct Batch {
    /// The effects started, per handle: list 0 is the sender's, one more per re-entrant action.
    var lists: [[EffectRecord]] = [[]]
    var deferred: [(DeferredEffects, Int)] = []
    var cancellations: [@Sendable () -> Void] = []
    /// How many actions the batch has reduced: each effect is tagged with the reduction that returned it.
    var reductions = 0
    /// The ids cancelled so far, with the reduction whose effect cancelled them. An effect returned earlier but
    /// not started yet — it waits behind a `.send` reduced depth-first — is cancelled by them too, as in TCA, which
    /// starts all of an action's effects before reducing what they send.
    var cancelled: [(id: CancelID, reduction: Int)] = []

    /// Whether an effect with `cancelIDs`, returned by `reduction`, was cancelled by a later reduction's effect.
    func isCancelled(_ cancelIDs: [CancelID], returnedBy reduction: Int) -> Bool {
      cancelled.contains { $0.reduction > reduction && cancelIDs.contains($0.id) }
    }
  }

  /// Finishes a `send` whose first action returned `effect`: the lock is held (and this thread holds the store).
  @inline(never)
  private func runBatch(
    startingWith effect: Effect<Action>, of action: Action, cause: EffectRecord?,
    context: UnsafeMutablePointer<ThreadContext>
  ) -> StoreTask {
    // The common chains of `.send` effects need no bookkeeping at all.
    var effect = effect
    var action = action
    while !flags.pointee.hasQueued, case let .send(next) = effect.node {
      action = next
      effect = reduce(next, origin: .received, cause: cause, context: context)
    }
    if effect.isNone && !flags.pointee.hasQueued {
      // Nothing was started and nothing is queued: no bookkeeping to hand out (and nothing to allocate).
      let notify = flags.pointee.isObserved
      if flags.pointee.hasStreams { yieldToStreams() }
      release(context)
      if notify { observationHook?() }
      return StoreTask()
    }
    var batch = Batch()
    var work: [Work] = [
      .start(effect, startedBy: action, sequence: lastSequence, cancelIDs: [], cause: cause, list: 0, reduction: 0)
    ]
    takeQueued(into: &work, batch: &batch)
    run(&work, batch: &batch, context: context)
    return endBatch(batch, context: context)
  }

  /// Processes `work` depth-first, with the lock held.
  private func run(_ work: inout [Work], batch: inout Batch, context: UnsafeMutablePointer<ThreadContext>) {
    while let item = work.popLast() {
      if flags.pointee.isInvalidated { break }
      switch item {
      case let .reduce(action, origin, cause, list, dropsIfCauseCancelled):
        if dropsIfCauseCancelled, cause?.isCancelled == true { continue }
        let effect = reduce(action, origin: origin, cause: cause, context: context)
        batch.reductions += 1
        work.append(
          .start(
            effect, startedBy: action, sequence: lastSequence, cancelIDs: [], cause: cause, list: list,
            reduction: batch.reductions))
        takeQueued(into: &work, batch: &batch)

      case let .start(effect, action, sequence, cancelIDs, cause, list, reduction):
        switch effect.node {
        case .none:
          continue
        case let .send(next):
          // A consequence of an action already reduced: delivered even if that action cancelled its cause.
          work.append(.reduce(next, .received, cause: cause, list: list, dropsIfCauseCancelled: false))
        case let .run(run):
          if batch.isCancelled(cancelIDs, returnedBy: reduction) { continue }
          let record = spawn(
            cancelIDs: cancelIDs, cause: cause, startedBy: action, sequence: sequence, priority: run.priority
          ) { core, record, values in
            await core.execute(run, record: record, values: values)
          }
          batch.lists[list].append(record)
        case let .merge(effects):
          for effect in effects.reversed() {
            work.append(
              .start(
                effect, startedBy: action, sequence: sequence, cancelIDs: cancelIDs, cause: cause, list: list,
                reduction: reduction))
          }
        case let .concatenate(effects):
          let leading = effects.prefix { $0.isSynchronous }.count
          if leading < effects.count {
            work.append(
              .spawnRest(
                Array(effects[leading...]), startedBy: action, sequence: sequence, cancelIDs: cancelIDs, cause: cause,
                list: list, reduction: reduction))
          }
          for effect in effects[..<leading].reversed() {
            work.append(
              .start(
                effect, startedBy: action, sequence: sequence, cancelIDs: cancelIDs, cause: cause, list: list,
                reduction: reduction))
          }
        case let .cancellable(id, cancelInFlight, inner):
          if cancelInFlight {
            cancelHeld(id: id, into: &batch.cancellations)
            batch.cancelled.append((id, reduction))
          }
          work.append(
            .start(
              inner, startedBy: action, sequence: sequence, cancelIDs: cancelIDs + id.registrationKeys, cause: cause,
              list: list, reduction: reduction))
        case let .cancel(id):
          cancelHeld(id: id, into: &batch.cancellations)
          batch.cancelled.append((id, reduction))
        }

      case let .spawnRest(effects, action, sequence, cancelIDs, cause, list, reduction):
        if batch.isCancelled(cancelIDs, returnedBy: reduction) { continue }
        let rest = effects.count == 1 ? effects[0] : Effect(.concatenate(effects))
        let record = spawn(cancelIDs: cancelIDs, cause: cause, startedBy: action, sequence: sequence, priority: nil) {
          core, record, values in
          await DependencyValues.$taskValues.withValue(values) { await core.runToCompletion(rest, record: record) }
        }
        batch.lists[list].append(record)
      }
    }
  }

  /// Moves the actions sent re-entrantly onto the work stack, so they are reduced next, in the order sent.
  private func takeQueued(into work: inout [Work], batch: inout Batch) {
    guard flags.pointee.hasQueued else { return }
    let queued = mutable.pointee.queue
    mutable.pointee.queue.removeAll(keepingCapacity: true)
    flags.pointee.hasQueued = false
    for item in queued.reversed() {
      let list = batch.lists.count
      batch.lists.append([])
      batch.deferred.append((item.deferred, list))
      work.append(.reduce(item.action, item.origin, cause: item.cause, list: list, dropsIfCauseCancelled: true))
    }
  }

  /// Feeds state streams once for the whole batch, lets other threads in, then does what must not run locked.
  private func endBatch(_ batch: Batch, context: UnsafeMutablePointer<ThreadContext>) -> StoreTask {
    // Actions queued when the store was released mid-batch are dropped; their handles resolve empty.
    var dropped: [DeferredEffects] = []
    if flags.pointee.hasQueued {
      dropped = mutable.pointee.queue.map(\.deferred)
      mutable.pointee.queue.removeAll()
      flags.pointee.hasQueued = false
    }
    if flags.pointee.hasStreams { yieldToStreams() }
    let notify = flags.pointee.isObserved
    release(context)
    for cancel in batch.cancellations { cancel() }
    for (deferred, list) in batch.deferred { deferred.resolve(batch.lists[list]) }
    for deferred in dropped { deferred.resolve([]) }
    if notify { observationHook?() }
    return StoreTask(records: batch.lists[0])
  }

  /// Hands the state to every `states` subscriber: once per batch. Call with the lock held.
  private func yieldToStreams() {
    for subscriber in mutable.pointee.streams.values { subscriber.yield(state.pointee) }
  }

  // MARK: Effects

  private func spawn(
    cancelIDs: [CancelID],
    cause: EffectRecord?,
    startedBy action: Action,
    sequence: UInt64,
    priority: TaskPriority?,
    body: @escaping @Sendable (RootCore, EffectRecord, DependencyValues) async -> Void
  ) -> EffectRecord {
    let record = EffectRecord(action: action, cancelIDs: cancelIDs, owner: self)
    let id = mutable.pointee.nextEffectID
    mutable.pointee.nextEffectID += 1
    record.id = id
    record.sequence = sequence
    mutable.pointee.effects[id] = record
    for cancelID in cancelIDs { mutable.pointee.cancellables[cancelID, default: []].insert(id) }
    if let cause {
      record.parent = cause
      cause.children[id] = record
    }
    if observation != nil { report(.started, record) }
    let values = mutable.pointee.scope.values
    if let runtime {
      runtime.taskStarted()
      record.task = Task(executorPreference: runtime, priority: priority) {
        await TestRuntime.$current.withValue(runtime) { await body(self, record, values) }
        self.finish(record)
        runtime.taskFinished()
      }
    } else {
      record.task = Task(priority: priority) {
        await body(self, record, values)
        self.finish(record)
      }
    }
    return record
  }

  /// Runs one `.run` effect in the current task.
  private func execute(_ run: Effect<Action>.Run, record: EffectRecord, values: DependencyValues) async {
    let send = Send<Action> { [self] action in _ = self.send(action, origin: .received, cause: record) }
    let context = EffectContext(registry: self, namespace: run.namespace)
    await EffectContext.$current.withValue(context) {
      await execute(run, send: send, record: record, values: values)
    }
  }

  private func execute(
    _ run: Effect<Action>.Run, send: Send<Action>, record: EffectRecord, values: DependencyValues
  ) async {
    await DependencyValues.$taskValues.withValue(run.dependencies ?? values) {
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

  /// Runs `effect` to its end inside one task: the asynchronous rest of a `concatenate`, where each part waits
  /// for the previous one.
  private func runToCompletion(_ effect: Effect<Action>, record: EffectRecord) async {
    switch effect.node {
    case .none:
      return
    case let .send(action):
      _ = send(action, origin: .received, cause: record)
    case let .run(run):
      await execute(run, record: record, values: DependencyValues.current)
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
      let cancelled = locked {
        for key in id.registrationKeys { mutable.pointee.cancellables[key, default: []].insert(record.id) }
        return record.isCancelled
      }
      if cancelled { return }
      await runToCompletion(inner, record: record)
    case let .cancel(id):
      cancel(id: id, except: record)
    }
  }

  private func finish(_ record: EffectRecord) {
    locked {
      record.isFinished = true
      if observation != nil { report(.finished, record) }
      mutable.pointee.effects.removeValue(forKey: record.id)
      for id in record.cancelIDs { removeCancellable(id, record.id) }
      record.pruneFromTree()
    }
  }

  private func removeCancellable(_ id: CancelID, _ recordID: UInt64) {
    guard var set = mutable.pointee.cancellables[id] else { return }
    set.remove(recordID)
    mutable.pointee.cancellables[id] = set.isEmpty ? nil : set
  }

  private func isCancelled(_ record: EffectRecord) -> Bool {
    locked { record.isCancelled }
  }

  /// Marks the effects running under `id` cancelled and collects how to cancel them and the work registered
  /// under `id`. Call with the lock held; run the collected cancellations after releasing it.
  private func cancelHeld(
    id: CancelID, except excluded: EffectRecord? = nil, into cancellations: inout [@Sendable () -> Void]
  ) {
    if let ids = mutable.pointee.cancellables[id] {
      for recordID in ids {
        guard let record = mutable.pointee.effects[recordID], record !== excluded, !record.isCancelled else {
          continue
        }
        record.isCancelled = true
        if observation != nil { report(.cancelled, record) }
        if let task = record.task { cancellations.append { task.cancel() } }
      }
    }
    if let work = mutable.pointee.registeredWork.removeValue(forKey: id) {
      cancellations.append(contentsOf: work.values)
    }
  }

  func cancel(id: CancelID, except excluded: EffectRecord? = nil) {
    var cancellations: [@Sendable () -> Void] = []
    locked { cancelHeld(id: id, except: excluded, into: &cancellations) }
    for cancel in cancellations { cancel() }
  }

  func cancel(id: CancelID) {
    cancel(id: id, except: nil)
  }

  func register(id: CancelID, cancelInFlight: Bool, cancel: @escaping @Sendable () -> Void) -> UInt64 {
    var cancellations: [@Sendable () -> Void] = []
    let token: UInt64 = locked {
      if cancelInFlight { cancelHeld(id: id, into: &cancellations) }
      mutable.pointee.nextWorkToken += 1
      let token = mutable.pointee.nextWorkToken
      for key in id.registrationKeys { mutable.pointee.registeredWork[key, default: [:]][token] = cancel }
      return token
    }
    for cancel in cancellations { cancel() }
    return token
  }

  func unregister(id: CancelID, token: UInt64) {
    locked {
      for key in id.registrationKeys {
        mutable.pointee.registeredWork[key]?.removeValue(forKey: token)
        if mutable.pointee.registeredWork[key]?.isEmpty == true { mutable.pointee.registeredWork[key] = nil }
      }
    }
  }

  /// Cancels `records` and every effect started by the actions they fed back, recursively.
  func cancelTrees(_ records: [EffectRecord]) {
    let tasks: [Task<Void, Never>] = locked {
      var tasks: [Task<Void, Never>] = []
      for record in records {
        record.forEachInTree { record in
          guard !record.isFinished, !record.isCancelled else { return }
          record.isCancelled = true
          if observation != nil { report(.cancelled, record) }
          if let task = record.task { tasks.append(task) }
        }
      }
      return tasks
    }
    for task in tasks { task.cancel() }
  }

  /// The tasks of `records` and their descendants that have not finished.
  func unfinishedTasks(inTreesOf records: [EffectRecord]) -> [Task<Void, Never>] {
    locked {
      var tasks: [Task<Void, Never>] = []
      for record in records {
        record.forEachInTree { record in
          if !record.isFinished, let task = record.task { tasks.append(task) }
        }
      }
      return tasks
    }
  }

  /// Cancels every effect and stops accepting actions: the store has been released.
  func invalidate() {
    let (records, streams) = locked {
      flags.pointee.isInvalidated = true
      defer {
        mutable.pointee.streams.removeAll()
        flags.pointee.hasStreams = false
      }
      return (Array(mutable.pointee.effects.values), Array(mutable.pointee.streams.values))
    }
    cancelTrees(records)
    for stream in streams { stream.finish() }
  }

  /// Cancels every running effect (the store stays usable).
  func cancelAllEffects() {
    cancelTrees(locked { Array(mutable.pointee.effects.values) })
  }

  /// Stops counting the effects running now as in flight (a test no longer waits for them); they keep running.
  func skipRunningEffects() {
    locked { for record in mutable.pointee.effects.values { record.isSkipped = true } }
  }

  /// The effects still running and not skipped, oldest first: the action that started each, and whether it has
  /// been cancelled (and is winding down).
  var runningEffectSummaries: [(action: any Sendable, isCancelled: Bool)] {
    locked {
      mutable.pointee.effects.values.filter { !$0.isSkipped }.sorted { $0.id < $1.id }
        .map { ($0.action, $0.isCancelled) }
    }
  }

  // MARK: Dependencies

  /// The dependencies the reducer reads and new effects start with.
  var dependencies: DependencyValues {
    locked { mutable.pointee.scope.values }
  }

  /// Replaces the dependencies for the actions reduced from now on; running effects keep theirs.
  func setDependencies(_ values: DependencyValues) {
    let scope = ReduceScope(values: values)
    locked {
      mutable.pointee.scope = scope
      scopeSlot.pointee = Unmanaged.passUnretained(scope)
    }
  }

  // MARK: Reading

  override func withState<T>(_ body: (borrowing State) -> T) -> T {
    locked { body(state.pointee) }
  }

  override func trackAccess() {
    locked { flags.pointee.isObserved = true }
  }

  override func stream<T: Sendable>(_ transform: @escaping (borrowing State) -> T) -> AsyncStream<T> {
    let (stream, continuation) = AsyncStream<T>.makeStream(bufferingPolicy: .unbounded)
    let subscriber = StateSubscriber(
      yield: { continuation.yield(transform($0)) },
      finish: { continuation.finish() })
    let id: Int? = locked {
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
      self.locked {
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
    dependencies.issueReporter.report(RuntimeIssue(message: message, fileID: "Unidirectional/Store", line: 0))
  }

  // MARK: Observer

  /// Reports a reduction begun by ``ObservationCounters/willReduce(_:)`` at `start` to the observer.
  @inline(never)
  private func didReduce(
    _ action: Action, origin: ActionOrigin, cause: EffectRecord?, start: UInt64,
    observation: UnsafeMutablePointer<ObservationCounters>
  ) {
    let timing =
      observation.pointee.measuresTime
      ? ReducerTiming(start: start, nanoseconds: InstrumentationClock.nanoseconds &- start) : nil
    let reduction = Reduction(
      sequence: observation.pointee.sequence, origin: origin, effect: cause?.id, timing: timing)
    observer.didReduce(action, reduction, state: ReducedState(state))
  }

  /// The sequence number of the last action reduced (0 without an observer). Call with the lock held.
  private var lastSequence: UInt64 { observation?.pointee.sequence ?? 0 }

  /// Tells the observer what happened to `record`. Call with the lock held.
  private func report(_ kind: EffectEvent.Kind, _ record: EffectRecord) {
    guard let observation else { return }
    observer.effectDidChange(
      EffectEvent(
        kind: kind, effect: record.id, startedBy: record.sequence, parent: kind == .started ? record.parent?.id : nil,
        time: observation.pointee.measuresTime ? InstrumentationClock.nanoseconds : nil))
  }

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    try locked(body)
  }
}

/// The observer of a store without observers: never called.
private final class Unobserved<State, Action: Sendable>: StoreObserver {
  func didReduce(_ action: Action, _ reduction: Reduction, state: ReducedState<State>) {}
}

extension Effect {
  /// Whether running this effect feeds back its actions synchronously and starts no asynchronous work.
  var isSynchronous: Bool {
    switch node {
    case .none, .send, .cancel: return true
    case .run: return false
    case let .merge(effects), let .concatenate(effects): return effects.allSatisfy(\.isSynchronous)
    case let .cancellable(_, _, inner): return inner.isSynchronous
    }
  }
}

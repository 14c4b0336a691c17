/// Runs a root reducer: the state, the actions and every effect the store owns.
///
/// One rule orders everything: a `send` reduces its action and, **with the store's lock held throughout**, every
/// action fed back synchronously — `.send` effects, also inside `merge` and the synchronous leading parts of
/// `concatenate`, depth-first — and every action sent re-entrantly on the reducing thread (from a reducer, a
/// dependency's callback, an observer or an instrument), each right after the action being reduced. Only then
/// are state readers and observers let in: nobody ever sees a parent that has not yet reacted to its child.
///
/// A send into **another** store made while this thread holds a store (from a reducer, an observer, an instrument, a dependency's
/// callback) is not reduced there and then: it waits until the thread lets go of its outermost store — after the
/// current `send`'s whole batch — and is then sent, on the same thread, before that `send` returns, in the order the
/// sends were made (``CrossStoreSends``). Its handle resolves when it is delivered. So a thread holding one store's
/// lock never waits for another's, and no combination of stores, threads and sends can deadlock. (TCA runs every
/// store on the main actor and reduces such a send nested, inside the sending reducer; across threads that needs a
/// lock order no two independent stores can agree on. Like TCA's own re-entrant buffering, the reducer that sent
/// does not see the other store's new state until its `send` is over.) Reading another store's state, or
/// cancelling its effects, from inside a reducer still takes that store's lock: two reducers that do that to each
/// other on two threads can still wait for each other — send instead.
///
/// Hot path (`send` of an action whose reducer returns `.none`): one thread-local load, one uncontended mutex, the
/// reducer call on state held behind a pointer (no exclusivity checks), no allocation, no task, no syscall.
/// Effects feed actions back synchronously from their own task: no actor hop.
final class RootCore<State, Action: Sendable>: StoreCore<State, Action>, EffectOwner, CancellationRegistry,
  StoreLocking, @unchecked Sendable
{
  let reducer: any Reducer<State, Action>
  let state: UnsafeMutablePointer<State>
  let lock = Lock()
  let mutable: UnsafeMutablePointer<Mutable>
  let flags: UnsafeMutablePointer<StoreFlags>
  /// The dependencies reducers read; replaced under the lock by ``setDependencies(_:)``.
  let dependenciesSlot: UnsafeMutablePointer<Unmanaged<ReducerDependencies>>
  let threadKey = ThreadContext.key
  let runtime: TestRuntime?
  /// Told about every reduction and effect (see ``StoreInstrument``); a store without instruments has a placeholder
  /// and no `counters`, and its send path pays nothing. Not optional: calling a method on a `let` needs no retain.
  let instrument: any StoreInstrument<State, Action>
  /// The instrument's bookkeeping, outside any generic context; allocated only for a real instrument.
  let counters: UnsafeMutablePointer<InstrumentCounters>?
  let observationHook: (@Sendable () -> Void)?
  /// The instrument's ``StoreInstrument/stepBuffer`` when it is the only one: each step is copied into it, and the
  /// instrument's `didReduce` is not called.
  let stepBuffer: StepBuffer<State, Action>?
  /// The same, unretained, for the send path (a retain and a release of it per step measured ~30 instructions);
  /// `stepBuffer` keeps it alive.
  let unretainedStepBuffer: Unmanaged<StepBuffer<State, Action>>?

  /// An action sent on the reducing thread, waiting for the current action to finish.
  struct Queued {
    let action: Action
    let origin: ActionOrigin
    let cause: EffectRecord?
    let deferred: DeferredEffects
  }

  /// Everything else that changes after init; touched only with `lock` held.
  struct Mutable {
    var dependencies: ReducerDependencies
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
    instrument: (any StoreInstrument<State, Action>)?,
    observationHook: (@Sendable () -> Void)?
  ) {
    self.reducer = reducer
    self.state = .allocate(capacity: 1)
    self.state.initialize(to: initialState)
    let scope = ReducerDependencies(values: dependencies)
    self.mutable = .allocate(capacity: 1)
    self.mutable.initialize(to: Mutable(dependencies: scope))
    self.dependenciesSlot = .allocate(capacity: 1)
    self.dependenciesSlot.initialize(to: Unmanaged.passUnretained(scope))
    self.flags = .allocate(capacity: 1)
    self.flags.initialize(to: StoreFlags())
    self.runtime = runtime
    self.instrument = instrument ?? Uninstrumented()
    self.observationHook = observationHook
    stepBuffer = instrument is StoreInstrumentGroup<State, Action> ? nil : instrument?.stepBuffer
    unretainedStepBuffer = stepBuffer.map { Unmanaged.passUnretained($0) }
    counters = instrument.map { instrument in
      let counters = UnsafeMutablePointer<InstrumentCounters>.allocate(capacity: 1)
      counters.initialize(to: InstrumentCounters(measuresTime: instrument.measuresTime))
      return counters
    }
    super.init()
    guard counters != nil else { return }
    let lock = StoreLock(self)
    // The buffer the store fills, or each group member's.
    let group = self.instrument as? StoreInstrumentGroup<State, Action>
    for buffer in stepBuffer.map({ [$0] }) ?? group?.stepBuffers ?? [] { buffer.attach(lock) }
    self.instrument.storeDidStart(
      InstrumentedStore(
        initialState: initialState, dependencies: dependencies, reducerType: type(of: reducer),
        lock: lock))
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
    mutable.deinitialize(count: 1)
    mutable.deallocate()
    dependenciesSlot.deallocate()
    flags.deallocate()
    if let counters {
      instrument.storeDidEnd()
      counters.deallocate()
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
    if context.pointee.heldStores != nil {
      return sendWhileHolding(action, origin: origin, cause: cause, context: context)
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
  func sendSlowly(
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

  /// A send made by a thread that holds a store: queued behind the current action when it holds this one, or else
  /// deferred until it lets go of its outermost store, rather than waiting for this store's lock while holding
  /// another's.
  @inline(never)
  func sendWhileHolding(
    _ action: Action, origin: ActionOrigin, cause: EffectRecord?, context: UnsafeMutablePointer<ThreadContext>
  ) -> StoreTask {
    if isHeld(by: context) { return enqueue(action, origin: origin, cause: cause) }
    let deferred = DeferredEffects()
    CrossStoreSends.append(
      { [self] in deferred.resolve(send(action, origin: origin, cause: cause).records) }, to: context)
    return StoreTask(deferred: deferred)
  }

  /// Queues an action sent on the thread that is reducing: it is reduced right after the current action.
  @inline(never)
  func enqueue(_ action: Action, origin: ActionOrigin, cause: EffectRecord?) -> StoreTask {
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
  func reduce(
    _ action: Action, origin: ActionOrigin, cause: EffectRecord?, context: UnsafeMutablePointer<ThreadContext>
  ) -> Effect<Action> {
    let counters = self.counters
    var start: UInt64 = 0
    if let counters { start = InstrumentCounters.willReduce(counters) }
    let outer = context.pointee.activeDependencies
    context.pointee.activeDependencies = dependenciesSlot.pointee
    let effect = reducer.reduce(into: &state.pointee, action: action)
    context.pointee.activeDependencies = outer
    if let counters {
      if let unretainedStepBuffer {
        unretainedStepBuffer._withUnsafeGuaranteedRef {
          $0.append(action, sequence: counters.pointee.sequence, origin: origin, state: UnsafePointer(state))
        }
      } else {
        didReduce(action, origin: origin, cause: cause, start: start, counters: counters)
      }
    }
    return effect
  }

  @inline(__always)
  func hold(_ context: UnsafeMutablePointer<ThreadContext>) {
    flags.pointee.outerHeld = context.pointee.heldStores
    context.pointee.heldStores = flags
  }

  /// Stops holding and lets other threads in; then, if this was the thread's outermost store, delivers the sends
  /// into other stores it made meanwhile.
  @inline(__always)
  func release(_ context: UnsafeMutablePointer<ThreadContext>) {
    context.pointee.heldStores = flags.pointee.outerHeld
    flags.pointee.outerHeld = nil
    lock.unlock()
    if context.pointee.outgoing != nil { CrossStoreSends.deliver(context) }
  }

  /// Whether this thread holds this store's lock to reduce (possibly with other stores held inside it).
  func isHeld(by context: UnsafeMutablePointer<ThreadContext>) -> Bool {
    var held = context.pointee.heldStores
    while let current = held {
      if current == flags { return true }
      held = current.pointee.outerHeld
    }
    return false
  }

  /// Runs `body` with the lock, or directly when this thread already holds it (a read from inside a reducer).
  func locked<T>(_ body: () throws -> T) rethrows -> T {
    let context = ThreadContext.current(key: threadKey)
    if context.pointee.heldStores != nil, isHeld(by: context) { return try body() }
    lock.lock()
    defer { lock.unlock() }
    return try body()
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

}

// How a root core takes an action: the first steps of the route ``RootCore`` describes, up to the batch.
extension RootCore {
  // MARK: Taking an action

  /// Reduces `action` (sent by a host, or fed back by the effect `cause`): the hot path, inlined into the callers.
  ///
  /// The common case — nothing held, a valid store with no state streams, sent from outside any effect — reduces
  /// here and, when the reducer returns `.none`, lets go here too. Everything else takes one of the paths below.
  @inline(__always)
  func send(_ action: Action, origin: ActionOrigin, cause: EffectRecord?) -> StoreTask {
    let context = ThreadContext.current(key: threadKey)
    if context.pointee.heldStores != nil {
      return sendWhileHolding(action, origin: origin, cause: cause, context: context)
    }
    lock.lock()
    let flags = self.flags.pointee
    if cause != nil || flags.isInvalidated || flags.hasStreams {
      return sendChecked(action, origin: origin, cause: cause, context: context)
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

  /// A `send` from an effect, to an invalidated store, or with state streams to feed: checks that the action may
  /// still be reduced, then reduces it. The lock is held on entry.
  @inline(never)
  func sendChecked(
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
  /// deferred until it lets go of its outermost store (``CrossStoreSends``), rather than waiting for this store's
  /// lock while holding another's.
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
    rareBookkeeping.queue.append(Queued(action: action, origin: origin, cause: cause, deferred: deferred))
    flags.pointee.hasQueued = true
    return StoreTask(deferred: deferred)
  }

  // MARK: Reducing

  /// Reduces one action (fed back by the effect `cause`, if any), with the store's dependencies bound for the
  /// reducer and the instrument told. Call with the lock held by this thread.
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

  // MARK: Holding and letting go

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

  /// Ends a batch's time under the lock: feeds the state streams once, then lets go. Returns whether the store's
  /// observers are to be told (``observationHook``), which the caller does once nothing is left to hand out.
  @inline(__always)
  func releaseAfterBatch(_ context: UnsafeMutablePointer<ThreadContext>) -> Bool {
    let notify = flags.pointee.isObserved
    if flags.pointee.hasStreams { yieldToStreams() }
    release(context)
    return notify
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

  /// Hands the state to every `states` subscriber: once per batch. Call with the lock held.
  func yieldToStreams() {
    for subscriber in rare?.streams.values ?? [:].values { subscriber.yield(state.pointee) }
  }
}

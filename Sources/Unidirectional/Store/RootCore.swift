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
/// The route of an action, file by file:
/// 1. ``Store/send(_:)`` (`Store.swift`) hands it to its core; a scoped store's core (`ScopedCore.swift`) embeds it
///    in the parent's action and hands it on, up to the root.
/// 2. `send(_:origin:cause:)` (`RootCore+Send.swift`) takes the lock and reduces it with `reduce`; a send from a
///    thread that already holds a store goes to `sendWhileHolding` (queued or deferred), one from an effect or to
///    an invalidated store to `sendChecked`.
/// 3. `runBatch` (`RootCore+Batch.swift`) reduces what the effect feeds back synchronously and what was queued,
///    depth-first, and collects the effects to start; `endBatch` lets go of the lock and hands them out.
/// 4. `spawn` (`RootCore+Effects.swift`) starts each `.run` effect in a task of its own; `perform` runs its
///    operation there with a ``Send``.
/// 5. ``Send`` (`Effect/Send.swift`) feeds an action back: step 2 again, with the effect as its cause.
///
/// Hot path (`send` of an action whose reducer returns `.none`): one thread-local load, one uncontended mutex, the
/// reducer call on state held behind a pointer (no exclusivity checks), no allocation, no task, no syscall.
/// Effects feed actions back synchronously from their own task: no actor hop.
final class RootCore<State, Action: Sendable>: StoreCore<State, Action>, EffectOwner, CancellationRegistry,
  StoreLocking, RootStoreCore, @unchecked Sendable
{
  let reducer: any Reducer<State, Action>
  // The flags, the mutex, the dependencies' slot, the bookkeeping and the state live in one allocation (see
  // ``RootStorage``), reached through pointers: no exclusivity checks, and one allocation per store where there were
  // six. The flags are at its start; the parts of fixed layout are at fixed offsets from them.
  let flags: UnsafeMutablePointer<StoreFlags>
  let state: UnsafeMutablePointer<State>
  var lock: StoreMutex { @inline(__always) get { StoreMutex(existing: RootStorageLayout.mutex(in: flags)) } }
  var mutable: UnsafeMutablePointer<RootBookkeeping> {
    @inline(__always) get { RootStorageLayout.bookkeeping(in: flags) }
  }
  /// The dependencies reducers read; replaced under the lock by ``setDependencies(_:)``.
  var dependenciesSlot: UnsafeMutablePointer<Unmanaged<ReducerDependencies>> {
    @inline(__always) get { RootStorageLayout.dependencies(in: flags) }
  }
  let threadKey = ThreadContext.key
  /// What only a tested or instrumented store has: nil for the others, which pay nothing for it.
  let extras: RootCoreExtras<State, Action>?
  /// The test runtime the store's effects run on, if any.
  var runtime: TestRuntime? { extras?.runtime }
  /// Told about every reduction and effect (see ``StoreInstrument``); read only when `counters` is not nil.
  var instrument: any StoreInstrument<State, Action> { extras.unsafelyUnwrapped.instrument.unsafelyUnwrapped }
  /// The instrument's bookkeeping, outside any generic context; allocated only for a real instrument.
  let counters: UnsafeMutablePointer<InstrumentCounters>?
  /// Tells the store's observers after a batch, once the store is observed; set once (under the lock), before
  /// `isObserved` can be true, so a batch that saw `isObserved` under the lock sees it too.
  private(set) var observationHook: (@Sendable () -> Void)?
  /// The instrument's ``StoreInstrument/stepBuffer`` when it is the only one, unretained, for the send path (a
  /// retain and a release of it per step measured ~30 instructions): each step is copied into it, and the
  /// instrument's `didReduce` is not called. `extras` keeps it alive.
  let unretainedStepBuffer: Unmanaged<StepBuffer<State, Action>>?

  /// An action sent on the reducing thread, waiting for the current action to finish.
  struct Queued {
    let action: Action
    let origin: ActionOrigin
    let cause: EffectRecord?
    let deferred: DeferredEffects
  }

  /// What few stores use (actions sent re-entrantly, `withTaskCancellation(id:)`, `states`), if one has been made.
  var rare: RareBookkeeping? {
    // Only this core sets it, always to its own `RareBookkeeping`.
    mutable.pointee.rare.map { unsafeDowncast($0, to: RareBookkeeping.self) }
  }

  /// ``rare``, made if it is not yet. Call with the lock held.
  var rareBookkeeping: RareBookkeeping {
    if let rare { return rare }
    let made = RareBookkeeping()
    mutable.pointee.rare = made
    return made
  }

  init(
    initialState: State,
    reducer: any Reducer<State, Action>,
    dependencies: DependencyValues,
    runtime: TestRuntime?,
    instrument: (any StoreInstrument<State, Action>)?
  ) {
    self.reducer = reducer
    let storage = RootStorage<State, RootBookkeeping>()
    let scope = ReducerDependencies(values: dependencies)
    self.flags = storage.flags
    self.flags.initialize(to: StoreFlags())
    _ = StoreMutex(initializing: storage.mutex)
    storage.dependencies.initialize(to: Unmanaged.passUnretained(scope))
    storage.bookkeeping.initialize(to: RootBookkeeping(dependencies: scope))
    self.state = storage.state
    self.state.initialize(to: initialState)
    guard let instrument else {
      // No instrument, the usual case: nothing of the instruments' types is looked up at run time.
      if let runtime {
        extras = RootCoreExtras(runtime: runtime, instrument: nil, stepBuffer: nil)
      } else {
        extras = nil
      }
      unretainedStepBuffer = nil
      counters = nil
      super.init()
      return
    }
    let stepBuffer = instrument is StoreInstrumentGroup<State, Action> ? nil : instrument.stepBuffer
    extras = RootCoreExtras(runtime: runtime, instrument: instrument, stepBuffer: stepBuffer)
    unretainedStepBuffer = stepBuffer.map { Unmanaged.passUnretained($0) }
    let counters = UnsafeMutablePointer<InstrumentCounters>.allocate(capacity: 1)
    counters.initialize(to: InstrumentCounters(measuresTime: instrument.measuresTime))
    self.counters = counters
    super.init()
    startInstrument(initialState: initialState, dependencies: dependencies)
  }

  /// Attaches the instrument's step buffers to the store's lock and tells the instrument the store started.
  @inline(never)
  private func startInstrument(initialState: State, dependencies: DependencyValues) {
    let lock = StoreLock(self)
    // The buffer the store fills, or each group member's.
    let group = instrument as? StoreInstrumentGroup<State, Action>
    for buffer in extras?.stepBuffer.map({ [$0] }) ?? group?.stepBuffers ?? [] { buffer.attach(lock) }
    instrument.storeDidStart(
      InstrumentedStore(
        initialState: initialState, dependencies: dependencies, reducerType: type(of: reducer),
        lock: lock))
  }

  deinit {
    state.deinitialize(count: 1)
    mutable.deinitialize(count: 1)
    lock.destroy()
    // The flags are at the start of the storage.
    UnsafeMutableRawPointer(flags).deallocate()
    if let counters {
      instrument.storeDidEnd()
      counters.deallocate()
    }
  }

  /// A host's `send` (through ``Store/send(_:)``): the first step of the route above.
  override func send(_ action: Action) -> StoreTask {
    send(action, origin: .sent, cause: nil)
  }

  // MARK: Reading

  override func withState<T>(_ body: (borrowing State) -> T) -> T {
    locked { body(state.pointee) }
  }

  override func trackAccess() {
    locked { flags.pointee.isObserved = true }
  }

  func setObservationHook(_ hook: @escaping @Sendable () -> Void) {
    locked { observationHook = hook }
  }

  override func stream<T: Sendable>(_ transform: @escaping (borrowing State) -> T) -> AsyncStream<T> {
    let (stream, continuation) = AsyncStream<T>.makeStream(bufferingPolicy: .unbounded)
    let subscriber = StateSubscriber(
      yield: { continuation.yield(transform($0)) },
      finish: { continuation.finish() })
    let id: Int? = locked {
      if flags.pointee.isInvalidated { return nil }
      let rare = rareBookkeeping
      let id = rare.nextStreamID
      rare.nextStreamID += 1
      rare.streams[id] = subscriber
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
        self.rare?.streams.removeValue(forKey: id)
        self.flags.pointee.hasStreams = self.rare?.streams.isEmpty == false
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

/// What only a tested or instrumented root store needs: its test runtime, its instrument and that instrument's step
/// buffer. A store per session on a server has none, and no allocation for them.
final class RootCoreExtras<State, Action: Sendable>: Sendable {
  let runtime: TestRuntime?
  let instrument: (any StoreInstrument<State, Action>)?
  let stepBuffer: StepBuffer<State, Action>?

  init(
    runtime: TestRuntime?, instrument: (any StoreInstrument<State, Action>)?, stepBuffer: StepBuffer<State, Action>?
  ) {
    self.runtime = runtime
    self.instrument = instrument
    self.stepBuffer = stepBuffer
  }
}

extension RootCore {
  /// The parts of a root store's bookkeeping that few stores use, in an object made the first time one does: work
  /// registered by `withTaskCancellation(id:)` and the subscribers of `states`. Touched only with the store's lock held.
  final class RareBookkeeping {
    /// Actions sent on the reducing thread, waiting for the current action to finish (``StoreFlags/hasQueued``).
    var queue: [Queued] = []
    /// Work inside effects made cancellable by `withTaskCancellation(id:)`.
    var registeredWork: [CancelID: [UInt64: @Sendable () -> Void]] = [:]
    var nextWorkToken: UInt64 = 0
    var nextStreamID = 0
    var streams: [Int: StateSubscriber] = [:]
  }
}

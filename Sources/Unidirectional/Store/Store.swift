import Synchronization

#if canImport(Observation)
  import Observation
#endif

/// Holds a feature's state, runs its reducer for every action, runs the effects the reducer returns and feeds
/// their actions back in order.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) {
///   Counter()
/// }
/// store.send(.incrementTapped)
/// print(store.count)                        // read through dynamic member lookup
/// for await state in store.states { … }     // every change, for headless hosts
/// ```
///
/// `send` is synchronous and may be called from any thread: an action sent while another is being reduced is
/// queued, never re-entered, and a send into another store from inside a reducer is made once the sending `send`
/// has let go of its store, so stores that send into each other from several threads never deadlock. Releasing the
/// root store cancels every effect it owns.
@dynamicMemberLookup
public final class Store<State, Action: Sendable>: @unchecked Sendable {
  let core: StoreCore<State, Action>
  /// The same object as `core` for a root store, seen through what only a root core does; nil for a child store.
  private let root: (any RootStoreCore)?
  private let parent: AnyObject?
  /// The ``observation``, once something has observed the store or scoped it (an `Unmanaged` reference's bits, 0
  /// until then): a store nothing observes — most of a server's — never makes one.
  private let observationSlot = Atomic<UInt>(0)

  /// A store running `reducer` from `initialState`, with dependencies changed by `prepareDependencies`.
  ///
  /// `initialState` and `reducer` are evaluated with the store's dependencies, so a state initializer that reads
  /// `@Dependency(\.uuid)` gets the overridden generator.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) {
    let (state, reducer, dependencies) = Self.prepare(initialState, reducer, prepareDependencies)
    self.init(initialState: state, reducer: reducer, dependencies: dependencies, runtime: nil, instrument: nil)
  }

  /// A new store's dependencies — the current ones, changed by `prepareDependencies`, with a cache of their own —
  /// and its initial state and reducer, evaluated with them.
  static func prepare<R: Reducer<State, Action>>(
    _ initialState: () -> State, _ reducer: () -> R,
    _ prepareDependencies: (inout DependencyValues) -> Void
  ) -> (State, R, DependencyValues) {
    var dependencies = DependencyValues.current
    DependencyValues.configuring { prepareDependencies(&dependencies) }
    let values = dependencies.isolated()
    let (state, reducer) = DependencyValues.withCurrent(values) { (initialState(), reducer()) }
    return (state, reducer, values)
  }

  /// The designated initializer shared with `TestStore` and stores with instruments.
  package init(
    initialState: State,
    reducer: some Reducer<State, Action>,
    dependencies: DependencyValues,
    runtime: TestRuntime?,
    instrument: (any StoreInstrument<State, Action>)?
  ) {
    let core = RootCore(
      initialState: initialState, reducer: reducer, dependencies: dependencies, runtime: runtime,
      instrument: instrument)
    self.core = core
    self.root = core
    self.parent = nil
  }

  /// A child store over `core`; `parent` keeps the store it was scoped from alive.
  init(core: StoreCore<State, Action>, parent: AnyObject) {
    self.core = core
    self.root = nil
    self.parent = parent
  }

  deinit {
    root?.invalidate()
    let bits = observationSlot.load(ordering: .acquiring)
    if let pointer = UnsafeRawPointer(bitPattern: bits) {
      Unmanaged<StoreObservation<State, Action>>.fromOpaque(pointer).release()
    }
  }

  /// The fields observers read, the child stores made, and the handlers of a main-actor facade: made the first
  /// time something needs it. A root store made one tells its core to notify it after every batch it reduces.
  var observation: StoreObservation<State, Action> {
    let bits = observationSlot.load(ordering: .acquiring)
    if let pointer = UnsafeRawPointer(bitPattern: bits) {
      return Unmanaged<StoreObservation<State, Action>>.fromOpaque(pointer).takeUnretainedValue()
    }
    return makeObservation()
  }

  @inline(never)
  private func makeObservation() -> StoreObservation<State, Action> {
    let made = Unmanaged.passRetained(StoreObservation<State, Action>())
    let bits = UInt(bitPattern: made.toOpaque())
    let (exchanged, existing) = observationSlot.compareExchange(
      expected: 0, desired: bits, ordering: .acquiringAndReleasing)
    guard exchanged, let root else {
      if !exchanged, let pointer = UnsafeRawPointer(bitPattern: existing) {
        made.release()
        return Unmanaged<StoreObservation<State, Action>>.fromOpaque(pointer).takeUnretainedValue()
      }
      return made.takeUnretainedValue()
    }
    root.setObservationHook { [weak self] in self?.notifyObservers() }
    return made.takeUnretainedValue()
  }

  /// Sends `action` to the reducer and starts the effects it returns.
  ///
  /// - Returns: A handle on those effects: `await task.finish()` waits for them, `task.cancel()` cancels them.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    core.send(action)
  }

  /// The current state. Reading it inside observation tracking (SwiftUI, `withObservationTracking`) registers
  /// the whole state: the observer is told when any of it changes. Read the fields a view shows instead
  /// (`store.count`) to be told only about those.
  public var state: State {
    let state = core.withState { copy $0 }
    observe(observation.wholeState, state)
    return state
  }

  /// Reads a value from the current state. Inside observation tracking it registers that field only: the
  /// observer is told when it changes (see `ObservedField` for what counts as a change).
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    let value = core.withState { $0[keyPath: keyPath] }
    observe(keyPath, value)
    return value
  }

  /// Reads a value at any depth of the current state. Inside observation tracking it registers the whole path:
  /// `store[\.profile.name]` is told when the name changes, while `store.profile.name` reads `profile` (and is told
  /// when any of it changes) and then the name of that copy.
  public subscript<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
    self[dynamicMember: keyPath]
  }

  /// Reads the current state without registering an observation access.
  public func withState<T>(_ body: (borrowing State) -> T) -> T {
    core.withState(body)
  }

  /// Cancels every running effect; the store stays usable.
  package func cancelAllEffects() {
    root?.cancelAllEffects()
  }

  /// The effects still running and not skipped, oldest first.
  package var runningEffects: [(action: any Sendable, isCancelled: Bool)] {
    root?.runningEffectSummaries ?? []
  }

  /// How many effects this store started are still running and not cancelled: what a host that shuts down waits
  /// for, or reports as left behind.
  ///
  /// ```swift
  /// store.send(.stop)
  /// while store.runningEffectCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
  /// ```
  public var runningEffectCount: Int {
    runningEffects.count { !$0.isCancelled }
  }

  /// Stops counting the effects running now as in flight; they keep running.
  package func skipRunningEffects() {
    root?.skipRunningEffects()
  }

  /// The dependencies the store's reducer reads and its new effects start with.
  package var dependencies: DependencyValues {
    get { root?.dependencies ?? DependencyValues.current }
    set { root?.setDependencies(newValue) }
  }

  /// The test runtime the store's effects run on, if any.
  package var runtime: TestRuntime? { root?.runtime }

  /// What the root store holds for its running effects (see ``StoreBookkeeping``).
  package var bookkeeping: StoreBookkeeping { root?.bookkeeping ?? StoreBookkeeping() }
}

extension Store where State: Sendable {
  /// The current state, then the state after every action the store reduces, for as long as the store lives.
  ///
  /// ```swift
  /// for await state in store.states { print(state.status) }
  /// ```
  public var states: AsyncStream<State> { core.stream { copy $0 } }
}

/// What a root ``Store`` asks of its core beyond ``StoreCore``, without naming the core's generic parameters: the
/// store holds its `RootCore` through this (no wrapper of closures around it).
protocol RootStoreCore: AnyObject, Sendable {
  func invalidate()
  func cancelAllEffects()
  func skipRunningEffects()
  var runningEffectSummaries: [(action: any Sendable, isCancelled: Bool)] { get }
  var dependencies: DependencyValues { get }
  func setDependencies(_ values: DependencyValues)
  var runtime: TestRuntime? { get }
  var bookkeeping: StoreBookkeeping { get }
  /// Called after every batch the core reduces once its store is observed; set once, when the store first needs
  /// its observation.
  func setObservationHook(_ hook: @escaping @Sendable () -> Void)
}

/// A store of `R`'s state and actions: `let store: StoreOf<Feature>`, TCA's spelling.
public typealias StoreOf<R: ReducerDomain> = Store<R.State, R.Action>

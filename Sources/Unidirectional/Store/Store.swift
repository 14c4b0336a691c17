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
/// queued, never re-entered. Releasing the root store cancels every effect it owns.
@dynamicMemberLookup
public final class Store<State, Action: Sendable>: @unchecked Sendable {
  let core: StoreCore<State, Action>
  private let root: AnyRootStore?
  private let parent: AnyObject?

  #if canImport(Observation)
    let registrar = ObservationRegistrar()
    private let notifications = LockIsolated((isNotifying: false, isPending: false))
  #endif

  /// A store running `reducer` from `initialState`, with dependencies changed by `prepareDependencies`.
  ///
  /// `initialState` and `reducer` are evaluated with the store's dependencies, so a state initializer that reads
  /// `@Dependency(\.uuid)` gets the overridden generator.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) {
    self.init(
      initialState: initialState(), observers: [], reducer: reducer, withDependencies: prepareDependencies)
  }

  /// The designated initializer shared with `TestStore` and stores with observers.
  package init(
    initialState: State,
    reducer: some Reducer<State, Action>,
    dependencies: DependencyValues,
    runtime: TestRuntime?,
    observer: (any StoreObserver<State, Action>)?
  ) {
    let box = WeakStoreBox()
    let core = RootCore(
      initialState: initialState, reducer: reducer, dependencies: dependencies, runtime: runtime,
      observer: observer, observationHook: { box.notify() })
    self.core = core
    self.root = AnyRootStore(core: core)
    self.parent = nil
    box.store = self
  }

  private init(core: StoreCore<State, Action>, parent: AnyObject) {
    self.core = core
    self.root = nil
    self.parent = parent
  }

  deinit {
    root?.invalidate()
  }

  /// Sends `action` to the reducer and starts the effects it returns.
  ///
  /// - Returns: A handle on those effects: `await task.finish()` waits for them, `task.cancel()` cancels them.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    core.send(action)
  }

  /// The current state. Reading it inside observation tracking (SwiftUI, `withObservationTracking`) registers
  /// the access, and later changes notify the observer.
  public var state: State {
    trackAccess()
    return core.withState { copy $0 }
  }

  /// Reads a value from the current state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    trackAccess()
    return core.withState { $0[keyPath: keyPath] }
  }

  /// Reads the current state without registering an observation access.
  public func withState<T>(_ body: (borrowing State) -> T) -> T {
    core.withState(body)
  }

  /// A store over a part of this store's state whose actions are embedded into this store's actions.
  ///
  /// ```swift
  /// let uploadStore = appStore.scope(state: \.upload, action: AppFeature.Action.upload)
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    Store<ChildState, ChildAction>(
      core: ScopedCore(parent: core, toChildState: toChildState, embed: embed), parent: self)
  }

  /// A store over an optional part of this store's state — a presented child, a stack element — or nil while that
  /// part is nil: how a headless host drives a presented feature.
  ///
  /// The child store keeps working while the child is present. Once it is gone, the child store stops sending:
  /// each `send` is a runtime issue and changes nothing; its state reads return the child's state as of the child
  /// store's last read or send, and its `states` stream ends.
  ///
  /// ```swift
  /// if let upload = store.scope(state: \.destination?.upload, action: { .destination(.presented(.upload($0))) }) {
  ///   upload.send(.itemsPicked(images))
  /// }
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?> & Sendable,
    action embed: @escaping @Sendable (ChildAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = core.withState({ $0[keyPath: toChildState] }) else { return nil }
    let core = OptionalScopedCore(
      parent: core, toChildState: toChildState, embed: embed, initial: initial, fileID: fileID, line: line)
    return Store<ChildState, ChildAction>(core: core, parent: self)
  }

  private func trackAccess() {
    rootStore?.registerAccess()
    core.trackAccess()
  }

  /// The root store this store is a scope of (itself for a root store).
  private var rootStore: AnyObservableStore? {
    if root != nil { return self }
    return (parent as? AnyScopeParent)?.rootObservable
  }

  /// Cancels every running effect; the store stays usable.
  package func cancelAllEffects() {
    root?.cancelAllEffects()
  }

  /// The effects still running and not skipped, oldest first.
  package var runningEffects: [(action: any Sendable, isCancelled: Bool)] {
    root?.runningEffects ?? []
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
}

#if canImport(Observation)
  extension Store: Observable {}
#endif

extension Store where State: Sendable {
  /// The current state, then the state after every action the store reduces, for as long as the store lives.
  ///
  /// ```swift
  /// for await state in store.states { print(state.status) }
  /// ```
  public var states: AsyncStream<State> { core.stream { copy $0 } }
}

/// A type-erased handle on a root core, so `Store` needs no extra generic parameters.
private final class AnyRootStore: Sendable {
  private let invalidateCore: @Sendable () -> Void
  private let cancelAll: @Sendable () -> Void
  private let skipRunning: @Sendable () -> Void
  private let running: @Sendable () -> [(action: any Sendable, isCancelled: Bool)]
  private let getDependencies: @Sendable () -> DependencyValues
  private let updateDependencies: @Sendable (DependencyValues) -> Void
  let runtime: TestRuntime?

  init<State, Action>(core: RootCore<State, Action>) {
    invalidateCore = { core.invalidate() }
    cancelAll = { core.cancelAllEffects() }
    skipRunning = { core.skipRunningEffects() }
    running = { core.runningEffectSummaries }
    getDependencies = { core.dependencies }
    updateDependencies = { core.setDependencies($0) }
    runtime = core.runtime
  }

  func invalidate() { invalidateCore() }
  func cancelAllEffects() { cancelAll() }
  func skipRunningEffects() { skipRunning() }
  var runningEffects: [(action: any Sendable, isCancelled: Bool)] { running() }
  var dependencies: DependencyValues { getDependencies() }
  func setDependencies(_ values: DependencyValues) { updateDependencies(values) }
}

/// Lets the root core notify observers of the store object without retaining it.
private final class WeakStoreBox: @unchecked Sendable {
  weak var store: (any AnyObservableStore)?

  func notify() {
    store?.notifyObservers()
  }
}

/// What scoped stores need from their root for observation.
protocol AnyObservableStore: AnyObject {
  func notifyObservers()
  func registerAccess()
}

protocol AnyScopeParent: AnyObject {
  var rootObservable: AnyObservableStore? { get }
}

extension Store: AnyObservableStore, AnyScopeParent {
  func notifyObservers() {
    #if canImport(Observation)
      // An observer may send from its change handler, which notifies again while the registrar is still calling
      // that handler (it would be called again, without end): such a notification is deferred until the one in
      // progress returns, then delivered once.
      let isFirst = notifications.withLock { state in
        if state.isNotifying {
          state.isPending = true
          return false
        }
        state.isNotifying = true
        return true
      }
      guard isFirst else { return }
      while true {
        registrar.withMutation(of: self, keyPath: \.state) {}
        let again = notifications.withLock { state in
          defer { state.isPending = false }
          if !state.isPending { state.isNotifying = false }
          return state.isPending
        }
        if !again { return }
      }
    #endif
  }

  func registerAccess() {
    #if canImport(Observation)
      registrar.access(self, keyPath: \.state)
    #endif
  }

  var rootObservable: AnyObservableStore? { rootStore }
}

/// A child store's view of its parent: reads through a key path, sends through an embedding.
final class ScopedCore<ParentState, ParentAction: Sendable, State, Action: Sendable>: StoreCore<State, Action>,
  @unchecked Sendable
{
  private let parent: StoreCore<ParentState, ParentAction>
  private let toChildState: KeyPath<ParentState, State> & Sendable
  private let embed: @Sendable (Action) -> ParentAction

  init(
    parent: StoreCore<ParentState, ParentAction>,
    toChildState: KeyPath<ParentState, State> & Sendable,
    embed: @escaping @Sendable (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toChildState = toChildState
    self.embed = embed
  }

  override func send(_ action: Action) -> StoreTask {
    parent.send(embed(action))
  }

  override func withState<T>(_ body: (borrowing State) -> T) -> T {
    parent.withState { body($0[keyPath: toChildState]) }
  }

  override func trackAccess() { parent.trackAccess() }

  override func stream<T: Sendable>(_ transform: @escaping (borrowing State) -> T) -> AsyncStream<T> {
    let toChildState = toChildState
    return parent.stream { transform($0[keyPath: toChildState]) }
  }
}

/// A store of `R`'s state and actions: `let store: StoreOf<Feature>`, TCA's spelling.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

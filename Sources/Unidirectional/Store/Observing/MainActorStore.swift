import Foundation

#if canImport(Observation)
  import Observation
#endif

/// A store for UI code: it shows a ``Store``'s state on the main actor, field by field, and tells observers
/// registered on the main actor (SwiftUI views, `withObservationTracking`) on the main actor.
///
/// ```swift
/// @MainActor
/// final class CounterScreen {
///   let store = MainActorStore(initialState: Counter.State()) { Counter() }
///   func render() {
///     withObservationTracking { label.text = "\(store.count)" } onChange: { … }   // told on the main actor
///   }
/// }
/// store.send(.incrementTapped)                          // from the main actor: shown when send returns
/// Task.detached { store.send(.tick) }                   // from any thread: shown on the next main-queue turn
/// ```
///
/// Delivery: a batch of actions reduced on the main thread is shown before `send` returns, so the main actor sees
/// each of those states in order. Batches reduced on other threads are coalesced per turn of the main queue: the
/// main actor then sees the latest state, never an older one after a newer one, and never a torn one (each state
/// is read whole, under the store's lock). Headless code keeps using the ``Store`` itself: its `send` costs what
/// it did.
@MainActor
@dynamicMemberLookup
public final class MainActorStore<State, Action: Sendable> {
  /// The store shown.
  public nonisolated let store: Store<State, Action>
  /// The state as the main actor last saw it.
  private var current: State
  private let fields = ObservedFields<State, MainActorStore<State, Action>>()
  private nonisolated let delivery: Delivery
  #if canImport(Observation)
    private let registrar = ObservationRegistrar()
  #endif

  /// The facade of `store` (``Store/mainActorStore`` gives the one facade of a store).
  init(store: Store<State, Action>) {
    self.store = store
    self.current = store.withState { copy $0 }
    self.delivery = Delivery()
    delivery.refresh = { [weak self] in self?.refresh() }
    let delivery = delivery
    delivery.token = store.addChangeHandler { delivery.storeChanged() }
  }

  /// A store running `reducer` from `initialState`, shown on the main actor.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) {
    let store = Store(initialState: initialState(), reducer: reducer, withDependencies: prepareDependencies)
    self.init(store: store)
    store.observation.facade = self
  }

  deinit {
    if let token = delivery.token { store.removeChangeHandler(token) }
  }

  /// Sends `action` to the store, from any thread.
  @discardableResult
  public nonisolated func send(_ action: Action) -> StoreTask {
    store.send(action)
  }

  /// The state as the main actor sees it; reading it inside observation tracking registers the whole state.
  public var state: State {
    observe(store.observation.wholeState, current)
    return current
  }

  /// Reads a field of the state as the main actor sees it, registering that field only.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    let value = current[keyPath: keyPath]
    observe(keyPath, value)
    return value
  }

  /// Reads a value at any depth of the state, registering its whole path.
  public subscript<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
    self[dynamicMember: keyPath]
  }

  /// The facade of a child store (see `Store.scope(state:action:fileID:line:column:)`).
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action embed: @escaping @Sendable (ChildAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column
  ) -> MainActorStore<ChildState, ChildAction> {
    store.scope(state: toChildState, action: embed, fileID: fileID, line: line, column: column).mainActorStore
  }

  /// The facade of an optional child store, or nil while the child is absent; registers the child's presence.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action embed: @escaping @Sendable (ChildAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column
  ) -> MainActorStore<ChildState, ChildAction>? {
    let isPresent = current[keyPath: toChildState] != nil
    observe(toChildState, part: .presence) { key in
      DerivedField(key: key, value: isPresent, derive: { $0[keyPath: toChildState] != nil }, isSame: { $0 == $1 })
    }
    guard isPresent else { return nil }
    return store.scope(
      state: toChildState, action: embed, fileID: fileID, line: line, column: column, observes: false
    )?.mainActorStore
  }

  /// The facades of the element stores of an identified collection, in order; registers the collection's ids.
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, (id: ID, action: ElementAction)>
  ) -> [MainActorStore<ElementState, ElementAction>] {
    let elements = current[keyPath: toElements]
    observe(toElements, part: .ids) { key in IDsField(key: key, keyPath: toElements, value: elements) }
    return store.scope(state: toElements, action: toElementAction, observes: false).map(\.mainActorStore)
  }

  /// The facades of the element stores of an identified collection whose actions are an ``IdentifiedAction``.
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ID, ElementAction>>
  ) -> [MainActorStore<ElementState, ElementAction>] {
    scope(state: toElements, action: labelledElements(toElementAction))
  }

  private func observe<Value>(_ keyPath: KeyPath<State, Value>, _ value: Value) {
    observe(keyPath, part: .value) { key in
      KeyPathField(keyPath: keyPath, key: key, value: value, isSame: observationComparison(for: Value.self))
    }
  }

  private func observe(
    _ keyPath: AnyKeyPath, part: ObservedFieldKey.Part, make: (ObservedFieldKey) -> ObservedField<State>
  ) {
    #if canImport(Observation)
      registrar.access(self, keyPath: fields.entry(for: keyPath, part: part, make: make).entry.registrarKey)
    #endif
  }

  /// Shows the store's current state and tells the observers of the fields that changed.
  private func refresh() {
    let latest = store.withState { copy $0 }
    let changed = fields.changed(in: latest)
    current = latest
    #if canImport(Observation)
      for key in changed { registrar.withMutation(of: self, keyPath: key) {} }
    #endif
  }

  /// Carries a store's change notifications to the main actor: at once from the main thread, coalesced from
  /// other threads.
  private final class Delivery: @unchecked Sendable {
    var refresh: (@MainActor () -> Void)?
    var token: UInt64?
    private let isScheduled = LockIsolated(false)

    func storeChanged() {
      if MainQueue.isCurrent {
        MainActor.assumeIsolated { refresh?() }
        return
      }
      let schedules = isScheduled.withLock { scheduled in
        defer { scheduled = true }
        return !scheduled
      }
      guard schedules else { return }
      DispatchQueue.main.async {
        self.isScheduled.setValue(false)
        MainActor.assumeIsolated { self.refresh?() }
      }
    }
  }
}

#if canImport(Observation)
  extension MainActorStore: Observable {}
#endif

extension MainActorStore: FieldObservingSubject {
  nonisolated subscript(observed key: ObservedFieldKey) -> Void { () }
}

extension Store {
  /// This store's facade for UI code on the main actor (the same one each time, while something holds it).
  @MainActor
  public var mainActorStore: MainActorStore<State, Action> {
    if let facade = observation.facade as? MainActorStore<State, Action> { return facade }
    let facade = MainActorStore(store: self)
    observation.facade = facade
    return facade
  }
}

/// Whether code runs on the main queue, which runs the main actor's jobs (on Linux the main actor may run on a
/// thread `Thread.isMainThread` does not call main).
enum MainQueue {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  static var isCurrent: Bool { Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true }
}

#if canImport(Observation)
  import Observation
#endif

/// What a store needs to be observed field by field: the fields observers read, the child stores it made (each
/// observed on its own), and the handlers of a main-actor facade.
///
/// After every batch of actions a root store reduces (only once something was observed: a headless store pays
/// nothing), it checks the fields observers read, tells its registrar about those that changed, then does the same
/// for its child stores: an observer is notified only when what it read changed.
final class StoreObservation<State, Action: Sendable>: @unchecked Sendable {
  /// The fields observers read.
  let fields = ObservedFields<State, Store<State, Action>>()
  /// `\State.self`, made once: a key path literal in generic code is instantiated anew at each use.
  let wholeState: KeyPath<State, State> = \State.self
  private let lock = Lock()
  private var children: [ChildStoreKey: WeakChild] = [:]
  private var collections: [ObjectIdentifier: any ChildStoreCollection<State>] = [:]
  private var handlers: [UInt64: @Sendable () -> Void] = [:]
  private var nextHandler: UInt64 = 0
  /// The main-actor facade of this store, if one was made (see ``Store/mainActorStore``).
  weak var facade: AnyObject?

  #if canImport(Observation)
    let registrar = ObservationRegistrar()
    /// Whether the store is telling its observers now, and whether another notification waits for that to end.
    let notifications = LockIsolated((isNotifying: false, isPending: false))
  #endif

  // MARK: Child stores

  /// The cached child store for `key`, or the one `make` returns (then cached while something holds it).
  func child<Child: ObservableChildStore>(_ key: ChildStoreKey, make: () -> Child?) -> Child? {
    if let existing = lock.withLock({ children[key]?.store as? Child }) { return existing }
    guard let made = make() else { return nil }
    return lock.withLock {
      if let existing = children[key]?.store as? Child { return existing }
      children = children.filter { $0.value.store != nil }
      children[key] = WeakChild(store: made)
      return made
    }
  }

  /// Forgets the cached child for `key` (its state went away).
  func removeChild(_ key: ChildStoreKey) {
    lock.withLock { _ = children.removeValue(forKey: key) }
  }

  /// The child stores something still holds.
  var liveChildren: [any ObservableChildStore] {
    lock.withLock { children.values.compactMap(\.store) }
  }

  /// The element stores of the collection at `keyPath`, made with `make` the first time.
  func collection<Collection: ChildStoreCollection<State>>(
    _ keyPath: AnyKeyPath, make: () -> Collection
  ) -> Collection? {
    lock.withLock {
      if let existing = collections[ObjectIdentifier(keyPath)] {
        return existing as? Collection
      }
      let made = make()
      collections[ObjectIdentifier(keyPath)] = made
      return made
    }
  }

  var allCollections: [any ChildStoreCollection<State>] {
    lock.withLock { Array(collections.values) }
  }

  // MARK: Handlers

  /// Calls `handler` after every batch the store reduces (on the thread that reduced it), until removed.
  func addHandler(_ handler: @escaping @Sendable () -> Void) -> UInt64 {
    lock.withLock {
      defer { nextHandler += 1 }
      handlers[nextHandler] = handler
      return nextHandler
    }
  }

  func removeHandler(_ token: UInt64) {
    lock.withLock { _ = handlers.removeValue(forKey: token) }
  }

  var allHandlers: [@Sendable () -> Void] {
    lock.withLock { Array(handlers.values) }
  }
}

extension Store: FieldObservingSubject {
  /// What an observed field is registered under: one key path per field, made once.
  subscript(observed key: ObservedFieldKey) -> Void { () }
}

/// An observable object whose fields are registered under `\Self.[observed: key]`.
protocol FieldObservingSubject: AnyObject {
  subscript(observed key: ObservedFieldKey) -> Void { get }
}

/// The fields observers read of a `State` shown by `Subject` (a store, or its main-actor facade), each with the key
/// path it is registered under with the subject's `ObservationRegistrar`.
final class ObservedFields<State, Subject: FieldObservingSubject>: @unchecked Sendable {
  struct Entry {
    let field: ObservedField<State>
    let registrarKey: KeyPath<Subject, Void>
  }

  private let lock = Lock()
  /// Fields by the identity of the key path they were read through: a key path literal is one object per call
  /// site, so a read is a pointer lookup.
  private var byKeyPathObject: [ObjectIdentifier: Entry] = [:]
  /// Every field, once, by what it observes (two call sites reading the same path share an entry).
  private var byKey: [ObservedFieldKey: Entry] = [:]

  /// The entry for what `keyPath` (and `part`) observe: created with `make` the first time.
  /// - Returns: The entry, and whether it was just created.
  func entry(
    for keyPath: AnyKeyPath, part: ObservedFieldKey.Part, make: (ObservedFieldKey) -> ObservedField<State>
  ) -> (entry: Entry, isNew: Bool) {
    let object = ObjectIdentifier(keyPath)
    return lock.withLock {
      if part == .value, let entry = byKeyPathObject[object] { return (entry, false) }
      let key = ObservedFieldKey(keyPath: keyPath, part: part)
      if let entry = byKey[key] {
        if part == .value { byKeyPathObject[object] = entry }
        return (entry, false)
      }
      let entry = Entry(field: make(key), registrarKey: \Subject.[observed: key])
      byKey[key] = entry
      if part == .value { byKeyPathObject[object] = entry }
      return (entry, true)
    }
  }

  /// The registrar keys of the fields that changed in `state` since they were last compared.
  func changed(in state: State) -> [KeyPath<Subject, Void>] {
    lock.lock()
    defer { lock.unlock() }
    var changed: [KeyPath<Subject, Void>] = []
    for entry in byKey.values where entry.field.hasChanged(in: state) { changed.append(entry.registrarKey) }
    return changed
  }
}

/// Identifies a cached child store: the state it is scoped to, its action type, and the `scope` call that made it
/// (an embedding closure has no identity of its own; one call site always embeds the same way).
struct ChildStoreKey: Hashable, @unchecked Sendable {
  let state: AnyKeyPath
  let action: ObjectIdentifier
  let fileID: String
  let line: UInt
  let column: UInt
}

private struct WeakChild {
  weak var store: (any ObservableChildStore)?
}

/// A store told to notify its observers after a batch of its root's.
protocol ObservableChildStore: AnyObject {
  /// Tells the store's observers what changed, then its own children's.
  func notifyObservers()
}

/// The element stores of one collection a parent scoped (`store.scope(state: \.rows, action: …)`).
protocol ChildStoreCollection<ParentState>: AnyObject, Sendable {
  associatedtype ParentState
  /// The element stores whose element may have changed in `state` (read with the store's lock held: only compare).
  func changedElementStores(in state: ParentState) -> [any ObservableChildStore]
}

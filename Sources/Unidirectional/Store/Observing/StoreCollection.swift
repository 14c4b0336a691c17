import Foundation

extension Store {
  /// A store for each element of an identified collection of this store's state, whose actions are embedded by
  /// element id: what a list shows, one row store per element.
  ///
  /// ```swift
  /// for row in store.scope(state: \.rows, action: Gallery.Action.rowCase) {
  ///   print(row.title)        // observes this row's title only
  /// }
  /// ```
  ///
  /// Reading the collection inside observation tracking registers its ids only: the observer is told when
  /// elements are added, removed or moved, not when one changes. Each row store is observed on its own and is the
  /// same store for the same id while something holds it, so changing one row of a thousand notifies that row's
  /// observers only.
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, (id: ID, action: ElementAction)>
  ) -> StoreCollection<ID, ElementState, ElementAction> {
    scope(state: toElements, action: toElementAction, observes: true)
  }

  /// The collection scope, registering its ids with this store's observers or not (a main-actor facade
  /// registers them with its own).
  func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, (id: ID, action: ElementAction)>,
    observes: Bool
  ) -> StoreCollection<ID, ElementState, ElementAction> {
    let elements = core.withState { $0[keyPath: toElements] }
    if observes {
      observe(toElements, part: .ids) { key in IDsField(key: key, keyPath: toElements, value: elements) }
    }
    let make = { ElementStores(parent: self, toElements: toElements, toElementAction: toElementAction) }
    let cache = observation.collection(toElements, make: make) ?? make()
    return StoreCollection(snapshot: elements.elements, ids: elements.ids, source: cache, parent: self)
  }

  /// `scope(state:action:)` for a case path made straight from a labelled case (`CasePath(Action.row)` of
  /// `case row(id:action:)`), whose value is an unlabelled `(ID, Action)`.
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, (ID, ElementAction)>
  ) -> StoreCollection<ID, ElementState, ElementAction> {
    scope(
      state: toElements,
      action: CasePath(
        { toElementAction.embed(($0.id, $0.action)) },
        extract: { toElementAction.extract($0).map { (id: $0.0, action: $0.1) } }))
  }

  /// `scope(state:action:)` for TCA's `case rows(IdentifiedActionOf<Row>)`.
  ///
  /// ```swift
  /// for row in store.scope(state: \.rows, action: CasePath(Action.rows)) { print(row.title) }
  /// ```
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ID, ElementAction>>
  ) -> StoreCollection<ID, ElementState, ElementAction> {
    scope(state: toElements, action: labelledElements(toElementAction))
  }
}

/// The row stores of a scoped identified collection, in the order of the ids when it was read. See
/// `Store.scope(state:action:)`.
public struct StoreCollection<ID: Hashable & Sendable, ElementState, ElementAction: Sendable>: RandomAccessCollection {
  /// The ids of the elements, in order, when the collection was read.
  public let ids: [ID]
  /// The elements when the collection was read: the state of a row store whose element is gone by the time it is
  /// asked for.
  private let snapshot: [ElementState]
  private let source: any ElementStoreSource<ID, ElementState, ElementAction>
  /// The store the collection was scoped from, kept alive while the collection is.
  private let parent: AnyObject

  init(
    snapshot: [ElementState], ids: [ID], source: any ElementStoreSource<ID, ElementState, ElementAction>,
    parent: AnyObject
  ) {
    self.snapshot = snapshot
    self.ids = ids
    self.source = source
    self.parent = parent
  }

  public var startIndex: Int { ids.startIndex }
  public var endIndex: Int { ids.endIndex }

  /// The store of the element at `position` (the same store for the same id while something holds it).
  public subscript(position: Int) -> Store<ElementState, ElementAction> {
    source.store(for: ids[position], snapshot: snapshot[position])
  }
}

/// Makes and caches the store of an element by id.
protocol ElementStoreSource<ID, ElementState, ElementAction>: Sendable {
  associatedtype ID: Hashable
  associatedtype ElementState
  associatedtype ElementAction: Sendable
  /// The element's store; `snapshot` is its state if the element is gone meanwhile.
  func store(for id: ID, snapshot: ElementState) -> Store<ElementState, ElementAction>
}

/// The element stores of one collection: made on demand, kept while held, and after each batch of the parent the
/// ones whose element changed are told to notify their observers.
///
/// Which elements changed is found without hashing or comparing values: the collection as of the last batch is
/// kept, and its elements' bytes are compared with the new ones' in order (the kept copy holds every reference an
/// element had, so identical bytes are the identical value). Changing one row of a thousand costs one pass over
/// their bytes and notifies that row's store only; adding, removing or moving rows notifies every live row store,
/// which then compares what its observers read.
final class ElementStores<
  ParentState, ParentAction: Sendable, ID: Hashable & Sendable, ElementState, ElementAction: Sendable
>:
  ChildStoreCollection, ElementStoreSource, @unchecked Sendable
{
  private weak var parent: Store<ParentState, ParentAction>?
  private let toElements: KeyPath<ParentState, IdentifiedArray<ID, ElementState>>
  private let toElementAction: CasePath<ParentAction, (id: ID, action: ElementAction)>
  private let lock = Lock()
  private var stores: [ID: WeakElementStore] = [:]
  private var last: IdentifiedArray<ID, ElementState>?

  init(
    parent: Store<ParentState, ParentAction>,
    toElements: KeyPath<ParentState, IdentifiedArray<ID, ElementState>>,
    toElementAction: CasePath<ParentAction, (id: ID, action: ElementAction)>
  ) {
    self.parent = parent
    self.toElements = toElements
    self.toElementAction = toElementAction
  }

  func store(for id: ID, snapshot: ElementState) -> Store<ElementState, ElementAction> {
    if let existing = lock.withLock({ stores[id]?.store as? Store<ElementState, ElementAction> }) {
      return existing
    }
    let made = makeStore(for: id, snapshot: snapshot)
    return lock.withLock {
      if let existing = stores[id]?.store as? Store<ElementState, ElementAction> { return existing }
      stores[id] = WeakElementStore(store: made)
      return made
    }
  }

  /// A store over the element with `id`: while the element is present it reads and sends through the parent;
  /// once it is gone it shows its last state and refuses actions, as a dismissed child's store does.
  private func makeStore(for id: ID, snapshot: ElementState) -> Store<ElementState, ElementAction> {
    let toElements = toElements
    let toElementAction = toElementAction
    guard let parent else {
      // Unreachable while a collection holds the parent; a store that only shows the element otherwise.
      return Store(initialState: snapshot) { EmptyReducer() }
    }
    let initial = parent.withState { $0[keyPath: toElements][id: id] } ?? snapshot
    let path = SendableKeyPath(toElements)
    return Store(
      core: OptionalScopedCore(
        parent: parent.core, toChildState: { $0[keyPath: path.keyPath][id: id] },
        embed: { toElementAction.embed((id, $0)) }, initial: initial, fileID: #fileID, line: #line),
      parent: parent)
  }

  func changedElementStores(in state: ParentState) -> [any ObservableChildStore] {
    let current = state[keyPath: toElements]
    return lock.withLock {
      defer { last = stores.isEmpty ? nil : current }
      guard !stores.isEmpty else { return [] }
      guard let last, let changed = current.idsOfChangedElements(since: last) else {
        // Rows were added, removed or moved: every live row store checks what its observers read, and the
        // entries of released stores go.
        stores = stores.filter { $0.value.store != nil }
        return stores.values.compactMap(\.store)
      }
      return changed.compactMap { id in
        guard let store = stores[id]?.store else {
          stores[id] = nil
          return nil
        }
        return store
      }
    }
  }
}

private struct WeakElementStore {
  weak var store: (any ObservableChildStore)?
}

/// The ids of an identified collection, observed: an observer of a list is told when rows are added, removed or
/// moved, not when a row changes.
final class IDsField<State, ID: Hashable & Sendable, Element>: ObservedField<State>, @unchecked Sendable {
  private let keyPath: KeyPath<State, IdentifiedArray<ID, Element>>
  private var last: IdentifiedArray<ID, Element>

  init(
    key: ObservedFieldKey, keyPath: KeyPath<State, IdentifiedArray<ID, Element>>, value: IdentifiedArray<ID, Element>
  ) {
    self.keyPath = keyPath
    self.last = value
    super.init(key: key)
  }

  override func hasChanged(in state: State) -> Bool {
    let current = state[keyPath: keyPath]
    defer { last = current }
    return !current.hasSameIDs(as: last)
  }
}

/// A value several features hold by reference: a change made through one is seen by all, as with TCA's `@Shared`
/// (swift-sharing 2.x semantics).
///
/// ```swift
/// struct SyncUpDetail: Reducer {
///   struct State: Equatable {
///     @Shared var syncUp: SyncUp
///   }
///   …
///   case let .titleChanged(title):
///     state.$syncUp.withLock { $0.title = title }   // every screen holding this sync-up sees it
/// }
///
/// let syncUp = Shared(value: SyncUp(title: "Standup"))
/// let detail = SyncUpDetail.State(syncUp: syncUp)
/// let title = syncUp.title                             // a view of part of it: Shared<String>
/// ```
///
/// A value can also live in a persistence strategy: `@Shared(.fileStorage(url)) var syncUps: [SyncUp] = []`,
/// `.inMemory("key")`, `.appStorage("key")`, or your own ``SharedKey``.
///
/// Change it with ``withLock(_:fileID:line:)``, which holds the value's lock for the change; reads of a value without
/// references take no lock (they check a version the change bumps), others take the lock briefly. In a `TestStore`, a change an action makes is asserted in that action's closure like any other
/// state change: `await store.send(.titleChanged("Retro")) { $0.$syncUp.withLock { $0.title = "Retro" } }`.
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value>: @unchecked Sendable {
  @usableFromInline let reference: WritableReference<Value>
  /// The reference itself when it owns the value (not a view of another): reads go straight to its storage.
  /// Unmanaged: `reference` keeps it alive, and a read through a strong one retained and released it around the read
  /// whenever the `Shared` was read in place (in a store's state, through `inout`).
  @usableFromInline let root: Unmanaged<RootReference<Value>>?

  init(reference: WritableReference<Value>) {
    self.reference = reference
    self.root = (reference as? RootReference<Value>).map { Unmanaged.passUnretained($0) }
  }

  /// A new shared value, not persisted: the features it is handed to share it.
  public init(value: sending Value) {
    self.init(reference: RootReference(value: value))
  }

  /// The same shared value: `Detail.State(syncUp: $syncUp)` with `init(syncUp: Shared<SyncUp>)` spelled as a
  /// property wrapper's projected value.
  public init(projectedValue: Shared<Value>) {
    self = projectedValue
  }

  /// A view of a shared optional that is non-nil now, or nil: `Shared($syncUps[id: id])` for one element of a
  /// shared collection. If the value later becomes nil, the view keeps its last value.
  public init?(_ base: Shared<Value?>) {
    guard let initialValue = base.wrappedValue else { return nil }
    self.init(reference: UnwrappedReference(base: base.reference, initialValue: initialValue))
  }

  /// The current value. In a `TestStore` assertion it is the value the test expects (see ``withLock(_:fileID:line:)``).
  public var wrappedValue: Value {
    // Inlinable, so that a read is specialized for the caller's type (no generic metadata to look up).
    @inlinable get {
      if isAssertingSharedState() { return reference.valueForAssertion() }
      if let root { return root._withUnsafeGuaranteedRef { $0.read() } }
      return reference.value
    }
    @available(*, deprecated, message: "Use '$shared.withLock { $0 = newValue }' to change a shared value.")
    nonmutating set {
      withLock { $0 = newValue }
    }
  }

  /// The shared value itself, to pass on or to change: `$syncUp.withLock { … }`.
  public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// Changes the value with exclusive access: no other thread reads or changes it meanwhile.
  ///
  /// ```swift
  /// state.$count.withLock { $0 += 1 }
  /// ```
  ///
  /// Inside a `TestStore` assertion closure it changes the value the test expects instead.
  public func withLock<R>(
    _ operation: (inout Value) throws -> R,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) rethrows -> R {
    if let tracker = SharedChangeTracker.asserting {
      var expected = reference.snapshot(in: tracker) ?? reference.value
      defer { reference.takeSnapshot(expected, in: tracker) }
      return try operation(&expected)
    }
    return try reference.withLock(operation)
  }

  /// A shared view of part of the value: changes through it change the whole.
  ///
  /// ```swift
  /// let title: Shared<String> = $syncUp.title
  /// let element: Shared<Todo?> = $todos[id: todoID]
  /// ```
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Shared<Member> {
    Shared<Member>(reference: KeyPathReference(base: reference, keyPath: keyPath))
  }

  /// A read-only view of part of the value.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader(self)[dynamicMember: keyPath]
  }

  /// A read-only view of a value computed from this one.
  ///
  /// ```swift
  /// let isZero: SharedReader<Bool> = $count.read { $0 == 0 }
  /// ```
  public func read<Member>(_ transform: @escaping @Sendable (Value) -> Member) -> SharedReader<Member> {
    SharedReader(self).read(transform)
  }

  /// Whether the persistence strategy is loading the value.
  public var isLoading: Bool { reference.isLoading }
  /// The error of the last load, if it failed (the value then stays what it was).
  public var loadError: (any Error)? { reference.loadError }
  /// The error of the last save, if it failed.
  public var saveError: (any Error)? { reference.saveError }

  /// Loads the value again from its persistence strategy.
  public func load() async throws { try await reference.load() }

  /// Saves the value to its persistence strategy now, instead of at the end of the strategy's debounce window.
  public func save() async throws { try await reference.save() }
}

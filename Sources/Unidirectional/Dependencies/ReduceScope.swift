import Foundation

/// The dependencies of the reducer a store is running on this thread, with a cache of values already read.
///
/// Reading `@Dependency(\.x)` inside a reducer is a thread-local load and a pointer-keyed lookup: applying a key
/// path to a computed property measured ~50 ns here, so each key path is applied once per scope and cached.
/// A scope is only read while its store holds its lock, so the cache needs no lock of its own.
@usableFromInline
final class ReduceScope: @unchecked Sendable {
  let values: DependencyValues
  /// Behind a pointer in a `let`: reads of a class's `var`s pay dynamic exclusivity checks (measured ~18 ns).
  @usableFromInline let table: UnsafeMutablePointer<Table>
  /// Owns the boxes and the key paths (so no identity is reused while cached).
  private var owned: [AnyObject] = []
  /// See ``activePresented()``; read and written with the store's lock held, as the rest of the scope.
  private var presentedScope: ReduceScope?

  /// Key path identity → unretained `ValueBox`, searched linearly (a handful of entries).
  @usableFromInline
  struct Table {
    @usableFromInline var keys: UnsafeMutablePointer<ObjectIdentifier>
    @usableFromInline var boxes: UnsafeMutablePointer<UnsafeRawPointer>
    @usableFromInline var count: Int
    var capacity: Int
  }

  init(values: DependencyValues) {
    self.values = values
    table = .allocate(capacity: 1)
    table.initialize(to: Table(keys: .allocate(capacity: 8), boxes: .allocate(capacity: 8), count: 0, capacity: 8))
  }

  deinit {
    table.pointee.keys.deallocate()
    table.pointee.boxes.deallocate()
    table.deallocate()
  }

  @inlinable @inline(__always)
  func value<Value>(_ keyPath: KeyPath<DependencyValues, Value>) -> Value {
    let key = ObjectIdentifier(keyPath)
    let table = self.table.pointee
    var index = 0
    while index < table.count {
      if table.keys[index] == key {
        // The same key path object always projects the same type.
        return Unmanaged<ValueBox<Value>>.fromOpaque(table.boxes[index])._withUnsafeGuaranteedRef { $0.value }
      }
      index += 1
    }
    return resolve(keyPath)
  }

  @usableFromInline @inline(never)
  func resolve<Value>(_ keyPath: KeyPath<DependencyValues, Value>) -> Value {
    let value = values[keyPath: keyPath]
    if table.pointee.count == table.pointee.capacity {
      let capacity = table.pointee.capacity * 2
      let keys = UnsafeMutablePointer<ObjectIdentifier>.allocate(capacity: capacity)
      let boxes = UnsafeMutablePointer<UnsafeRawPointer>.allocate(capacity: capacity)
      keys.update(from: table.pointee.keys, count: table.pointee.count)
      boxes.update(from: table.pointee.boxes, count: table.pointee.count)
      table.pointee.keys.deallocate()
      table.pointee.boxes.deallocate()
      table.pointee.keys = keys
      table.pointee.boxes = boxes
      table.pointee.capacity = capacity
    }
    let box = ValueBox(value)
    owned.append(box)
    owned.append(keyPath)
    let count = table.pointee.count
    table.pointee.keys[count] = ObjectIdentifier(keyPath)
    table.pointee.boxes[count] = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
    table.pointee.count = count + 1
    return value
  }

  /// Reads `keyPath` from the scope of the reducer running on this thread, if there is one.
  @inlinable @inline(__always)
  static func read<Value>(_ keyPath: KeyPath<DependencyValues, Value>) -> Value? {
    guard let scope = ThreadContext.current(key: ThreadContext.key).pointee.activeScope else { return nil }
    return scope._withUnsafeGuaranteedRef { $0.value(keyPath) }
  }

  /// The scope of the reducer running on this thread, if any.
  static var active: ReduceScope? {
    @inline(__always) get { ThreadContext.current(key: ThreadContext.key).pointee.activeScope?.takeUnretainedValue() }
  }

  /// The scope of a presented child of the reducer running on this thread (nil outside a store's reducer): these
  /// dependencies with `dismiss` dismissing the presentation. Made once per scope, not per action: a navigation
  /// reducer runs its child in it for each of the child's actions, and making it (copying the dependencies,
  /// setting one by key path, a new cache) cost ~5,700 instructions.
  @usableFromInline
  static func activePresented() -> ReduceScope? {
    guard let scope = active else { return nil }
    if let presented = scope.presentedScope { return presented }
    var values = scope.values
    DependencyValues.configuring { values.dismiss = .presentation }
    let presented = ReduceScope(values: values)
    scope.presentedScope = presented
    return presented
  }

  /// Runs `body` with `scope` as the active scope on this thread.
  @inlinable @inline(__always)
  static func with<T>(_ scope: ReduceScope?, _ body: () throws -> T) rethrows -> T {
    let context = ThreadContext.current(key: ThreadContext.key)
    let outer = context.pointee.activeScope
    context.pointee.activeScope = scope.map { Unmanaged.passUnretained($0) }
    defer { context.pointee.activeScope = outer }
    return try withExtendedLifetime(scope) { try body() }
  }
}

@usableFromInline
final class ValueBox<Value> {
  @usableFromInline let value: Value
  init(_ value: Value) { self.value = value }
}

/// Per-thread state of the store runtime, reached through one `pthread_getspecific` and no reference counting.
@usableFromInline
struct ThreadContext {
  /// The scope of the reducer a store is running on this thread; the store keeps it alive.
  @usableFromInline var activeScope: Unmanaged<ReduceScope>?
  /// The innermost store whose lock this thread holds while it reduces (its `StoreFlags`), or nil: how a `send`
  /// made on the reducing thread (from a reducer, a dependency's callback, a hook) is recognised and queued
  /// instead of deadlocking. Each held store links to the one held before it.
  var heldStores: UnsafeMutablePointer<StoreFlags>?
  /// Sends into other stores made while this thread held a store, waiting for it to let go of its outermost one
  /// (see ``CrossStoreSends``); nil when none wait, so releasing a store checks one word.
  var outgoing: [() -> Void]?
  /// Whether this thread is delivering `outgoing`: sends made meanwhile join the same delivery, in order.
  var isDeliveringOutgoing = false
  /// How many dependency overrides are being written on this thread (see ``DependencyValues/configuring(_:)``).
  var configuringDepth = 0
  /// The test store assertion running on this thread: shared values read in it are its expected values.
  var assertingTracker: Unmanaged<SharedChangeTracker>?

  @usableFromInline static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
      #if canImport(Darwin)
        let context = pointer.assumingMemoryBound(to: ThreadContext.self)
      #else
        guard let context = pointer?.assumingMemoryBound(to: ThreadContext.self) else { return }
      #endif
      context.deinitialize(count: 1)
      context.deallocate()
    }
    return key
  }()

  @inlinable @inline(__always)
  static func current(key: pthread_key_t) -> UnsafeMutablePointer<ThreadContext> {
    if let pointer = pthread_getspecific(key) {
      return pointer.assumingMemoryBound(to: ThreadContext.self)
    }
    return makeCurrent(key: key)
  }

  @usableFromInline @inline(never)
  static func makeCurrent(key: pthread_key_t) -> UnsafeMutablePointer<ThreadContext> {
    let context = UnsafeMutablePointer<ThreadContext>.allocate(capacity: 1)
    context.initialize(to: ThreadContext(activeScope: nil, heldStores: nil, configuringDepth: 0, assertingTracker: nil))
    pthread_setspecific(key, context)
    return context
  }
}

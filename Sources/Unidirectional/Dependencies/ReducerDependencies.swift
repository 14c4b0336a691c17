import Foundation

/// The dependencies of the reducer a store is running on this thread, with a cache of values already read.
///
/// Reading `@Dependency(\.x)` inside a reducer is a thread-local load and a pointer-keyed lookup: applying a key
/// path to a computed property measured ~50 ns here, so each key path is applied once per set and cached.
/// A set is only read while its store holds its lock, so the cache needs no lock of its own.
@usableFromInline
final class ReducerDependencies: @unchecked Sendable {
  let values: DependencyValues
  /// Behind a pointer in a `let`: reads of a class's `var`s pay dynamic exclusivity checks (measured ~18 ns).
  @usableFromInline let table: UnsafeMutablePointer<Table>
  /// Owns the boxes and the key paths (so no identity is reused while cached).
  private var owned: [AnyObject] = []
  /// See ``activePresented()``; read and written with the store's lock held, as the rest of the set.
  private var presentedDependencies: ReducerDependencies?

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

  /// Reads `keyPath` from the dependencies of the reducer running on this thread, if there is one.
  @inlinable @inline(__always)
  static func read<Value>(_ keyPath: KeyPath<DependencyValues, Value>) -> Value? {
    guard let active = ThreadContext.current(key: ThreadContext.key).pointee.activeDependencies else { return nil }
    return active._withUnsafeGuaranteedRef { $0.value(keyPath) }
  }

  /// The dependencies of the reducer running on this thread, if any.
  static var active: ReducerDependencies? {
    @inline(__always) get {
      ThreadContext.current(key: ThreadContext.key).pointee.activeDependencies?.takeUnretainedValue()
    }
  }

  /// The dependencies of a presented child of the reducer running on this thread (nil outside a store's reducer): these
  /// dependencies with `dismiss` dismissing the presentation. Made once per set, not per action: a navigation
  /// reducer runs its child in it for each of the child's actions, and making it (copying the dependencies,
  /// setting one by key path, a new cache) cost ~5,700 instructions.
  @usableFromInline
  static func activePresented() -> ReducerDependencies? {
    guard let active else { return nil }
    if let presented = active.presentedDependencies { return presented }
    var values = active.values
    DependencyValues.configuring { values.dismiss = .presentation }
    let presented = ReducerDependencies(values: values)
    active.presentedDependencies = presented
    return presented
  }

  /// Runs `body` with `dependencies` as the active ones on this thread.
  @inlinable @inline(__always)
  static func with<T>(_ dependencies: ReducerDependencies?, _ body: () throws -> T) rethrows -> T {
    let context = ThreadContext.current(key: ThreadContext.key)
    let outer = context.pointee.activeDependencies
    context.pointee.activeDependencies = dependencies.map { Unmanaged.passUnretained($0) }
    defer { context.pointee.activeDependencies = outer }
    return try withExtendedLifetime(dependencies) { try body() }
  }
}

@usableFromInline
final class ValueBox<Value> {
  @usableFromInline let value: Value
  init(_ value: Value) { self.value = value }
}

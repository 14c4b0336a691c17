import Foundation

/// The dependencies of the reducer a store is running on this thread, with a cache of values already read.
///
/// Reading `@Dependency(\.x)` inside a reducer is a thread-local load and a pointer-keyed lookup: applying a key
/// path to a computed property measured ~50 ns here, so each key path is applied once per set and cached.
/// A set is only read while its store holds its lock, so the cache needs no lock of its own.
@usableFromInline
final class ReducerDependencies: @unchecked Sendable {
  let values: DependencyValues
  /// Behind a pointer, in a property read without exclusivity checks (a class's `var` pays dynamic checks, measured
  /// ~18 ns): until the first read it is the shared empty table, so a store whose reducer reads no dependency
  /// allocates none. Replaced only by `resolve`, with the store's lock held.
  @exclusivity(unchecked) @usableFromInline var table: UnsafeMutablePointer<Table>

  /// Key path identity → unretained `ValueBox`, searched linearly (a handful of entries). Its arrays are made at
  /// the first read: a store whose reducer reads no dependency pays for none.
  @usableFromInline
  struct Table {
    @usableFromInline var keys: UnsafeMutablePointer<ObjectIdentifier>?
    @usableFromInline var boxes: UnsafeMutablePointer<UnsafeRawPointer>?
    @usableFromInline var count: Int
    var capacity: Int
    /// Owns the boxes and the key paths (so no identity is reused while cached).
    var owned: [AnyObject] = []
    /// See ``activePresented()``; read and written with the store's lock held, as the rest of the set.
    var presented: ReducerDependencies?
  }

  init(values: DependencyValues) {
    self.values = values
    table = Self.emptyTable
  }

  deinit {
    guard table != Self.emptyTable else { return }
    table.pointee.keys?.deallocate()
    table.pointee.boxes?.deallocate()
    table.deinitialize(count: 1)
    table.deallocate()
  }

  /// This set's own table, made if it still has the shared empty one. Call with the store's lock held.
  private func ownTable() -> UnsafeMutablePointer<Table> {
    if table == Self.emptyTable {
      table = .allocate(capacity: 1)
      table.initialize(to: Table(keys: nil, boxes: nil, count: 0, capacity: 0))
    }
    return table
  }

  /// The table of every set that has read nothing yet: never written.
  nonisolated(unsafe) private static let emptyTable: UnsafeMutablePointer<Table> = {
    let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)
    table.initialize(to: Table(keys: nil, boxes: nil, count: 0, capacity: 0))
    return table
  }()

  @inlinable @inline(__always)
  func value<Value>(_ keyPath: KeyPath<DependencyValues, Value>) -> Value {
    let key = ObjectIdentifier(keyPath)
    // Fields read through the pointer, not the table copied: a copy would retain what it owns.
    let table = self.table
    let count = table.pointee.count
    var index = 0
    while index < count {
      // `count` is 0 until the arrays exist.
      if table.pointee.keys.unsafelyUnwrapped[index] == key {
        // The same key path object always projects the same type.
        let box = table.pointee.boxes.unsafelyUnwrapped[index]
        return Unmanaged<ValueBox<Value>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
      }
      index += 1
    }
    return resolve(keyPath)
  }

  @usableFromInline @inline(never)
  func resolve<Value>(_ keyPath: KeyPath<DependencyValues, Value>) -> Value {
    let value = values[keyPath: keyPath]
    let table = ownTable()
    if table.pointee.count == table.pointee.capacity {
      let capacity = max(table.pointee.capacity * 2, 8)
      let keys = UnsafeMutablePointer<ObjectIdentifier>.allocate(capacity: capacity)
      let boxes = UnsafeMutablePointer<UnsafeRawPointer>.allocate(capacity: capacity)
      if let old = table.pointee.keys { keys.update(from: old, count: table.pointee.count) }
      if let old = table.pointee.boxes { boxes.update(from: old, count: table.pointee.count) }
      table.pointee.keys?.deallocate()
      table.pointee.boxes?.deallocate()
      table.pointee.keys = keys
      table.pointee.boxes = boxes
      table.pointee.capacity = capacity
    }
    let box = ValueBox(value)
    table.pointee.owned.append(box)
    table.pointee.owned.append(keyPath)
    let count = table.pointee.count
    table.pointee.keys.unsafelyUnwrapped[count] = ObjectIdentifier(keyPath)
    table.pointee.boxes.unsafelyUnwrapped[count] = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
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
    if let presented = active.table.pointee.presented { return presented }
    var values = active.values
    DependencyValues.configuring { values.dismiss = .presentation }
    let presented = ReducerDependencies(values: values)
    active.ownTable().pointee.presented = presented
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

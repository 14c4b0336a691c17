import Foundation

/// The dependencies of the reducer a store is running on this thread, with a cache of values already read.
///
/// Reading `@Dependency(\.x)` inside a reducer is a thread-local load and a pointer-keyed lookup: applying a key
/// path to a computed property measured ~50 ns here, so each key path is applied once per scope and cached.
/// A scope is only read while its store holds its lock, so the cache needs no lock of its own.
final class ReduceScope: @unchecked Sendable {
  let values: DependencyValues
  private var cache: [(key: ObjectIdentifier, keyPath: AnyKeyPath, box: AnyObject)] = []

  init(values: DependencyValues) {
    self.values = values
  }

  @inline(__always)
  func value<Value>(_ keyPath: KeyPath<DependencyValues, Value>) -> Value {
    let key = ObjectIdentifier(keyPath)
    for entry in cache where entry.key == key {
      // The same key path object always projects the same type.
      return unsafeDowncast(entry.box, to: ValueBox<Value>.self).value
    }
    return resolve(keyPath, key: key)
  }

  @inline(never)
  private func resolve<Value>(_ keyPath: KeyPath<DependencyValues, Value>, key: ObjectIdentifier) -> Value {
    let value = values[keyPath: keyPath]
    // The entry retains the key path, so its identity cannot be reused by another one.
    cache.append((key, keyPath, ValueBox(value)))
    return value
  }

  /// The scope of the reducer running on this thread, if any.
  static var active: ReduceScope? {
    @inline(__always) get { ThreadContext.current.activeScope?.takeUnretainedValue() }
  }

  /// Runs `body` with `scope` as the active scope on this thread.
  @inline(__always)
  static func with<T>(_ scope: ReduceScope?, _ body: () throws -> T) rethrows -> T {
    let context = ThreadContext.current
    let outer = context.activeScope
    context.activeScope = scope.map { Unmanaged.passUnretained($0) }
    defer { context.activeScope = outer }
    return try body()
  }
}

final class ValueBox<Value> {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Per-thread state of the store runtime, reached through one `pthread_getspecific`.
final class ThreadContext {
  var activeScope: Unmanaged<ReduceScope>?

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
      #if canImport(Darwin)
        Unmanaged<ThreadContext>.fromOpaque(pointer).release()
      #else
        if let pointer { Unmanaged<ThreadContext>.fromOpaque(pointer).release() }
      #endif
    }
    return key
  }()

  static var current: ThreadContext {
    @inline(__always) get {
      if let pointer = pthread_getspecific(key) {
        return Unmanaged<ThreadContext>.fromOpaque(pointer).takeUnretainedValue()
      }
      return makeCurrent()
    }
  }

  @inline(never)
  private static func makeCurrent() -> ThreadContext {
    let context = ThreadContext()
    pthread_setspecific(key, Unmanaged.passRetained(context).toOpaque())
    return context
  }
}

#if UNIDIRECTIONAL_TSAN
  /// Under ThreadSanitizer the module's `Mutex` is this one: a `pthread_mutex_t`, whose locking TSan intercepts.
  ///
  /// On Linux `Synchronization.Mutex` waits on a futex through atomics compiled into the toolchain's library, which
  /// is not instrumented: TSan cannot see that accesses made under it are ordered and reports each as a race ("Swift
  /// access race" inside `withLock`). `Scripts/tsan` builds with `-Xswiftc -DUNIDIRECTIONAL_TSAN`; every other build
  /// uses `Synchronization.Mutex` (a declaration of this module shadows the imported one only under the flag).
  ///
  /// ```swift
  /// let cache = Mutex<[Int: String]>([:])   // this type in a TSan build, Synchronization.Mutex otherwise
  /// cache.withLock { $0[1] = "one" }
  /// ```
  typealias Mutex<Value> = SanitizerVisibleMutex<Value>

  /// A value guarded by a ``Lock``, with `Synchronization.Mutex`'s API (see the `Mutex` alias above).
  final class SanitizerVisibleMutex<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ initialValue: consuming sending Value) {
      value = initialValue
    }

    func withLock<Result, E: Error>(
      _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
      lock.lock()
      defer { lock.unlock() }
      return try body(&value)
    }
  }
#endif

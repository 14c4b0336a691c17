import Foundation

/// Per-thread state of the store runtime, reached through one `pthread_getspecific` and no reference counting.
@usableFromInline
struct ThreadContext {
  /// The dependencies of the reducer a store is running on this thread; the store keeps them alive.
  @usableFromInline var activeDependencies: Unmanaged<ReducerDependencies>?
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
  /// Whether that assertion reads the actual side: shared values as the asserted step left them.
  var isReadingActualSharedValues = false
  /// The history and step shared values encoded on this thread read their values as of (see
  /// ``SharedValueHistory/withValues(atStep:_:)``).
  var sharedValuesAsOf: (history: Unmanaged<SharedValueHistory>, step: UInt64)?
  /// How many shared values this thread has encoded: a replay learns from it whether a state holds any.
  var sharedValuesEncoded = 0
  /// This thread's copies of the process-wide tables keyed by type — ``EnumCaseTag/of(caseOf:)``'s tags and
  /// ``PayloadCases/of(_:_:)``'s layouts — so that a `send` on any thread reads them without a process-wide lock
  /// once its thread has seen the type: stores driven from many threads do not contend on them.
  var enumTags: [ObjectIdentifier: UInt32?] = [:]
  var payloadCases = TypePairTable<PayloadCases>()

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
    context.initialize(to: ThreadContext())
    pthread_setspecific(key, context)
    return context
  }
}

/// What a ``SharedReader`` reads: a live value several features hold at once.
///
/// A reference either owns its value (``RootReference``) or is a view of another reference (a key path into it, its
/// unwrapped optional). Views forward to the reference that owns the storage, their ``root``: shared state is
/// tracked, compared and observed by that identity.
@usableFromInline
class ReadableReference<Value>: @unchecked Sendable, CustomStringConvertible {
  /// The live value. Reading it inside observation tracking registers an access to the root.
  @usableFromInline var value: Value { fatalError("abstract") }
  /// The reference that owns the storage.
  var root: AnyObject { fatalError("abstract") }
  /// The value as the assertion `tracker` expects it, if the tracker has seen a change to the root.
  func snapshot(in tracker: SharedChangeTracker) -> Value? { fatalError("abstract") }
  /// Whether `other` reads the same storage through the same path.
  func isSame(as other: ReadableReference<Value>) -> Bool { fatalError("abstract") }
  var isLoading: Bool { false }
  var loadError: (any Error)? { nil }
  /// Loads the value again from its persistence strategy (nothing for a plain value).
  func load() async throws {}
  /// The value as it was at the end of `step` of `history`'s store (see ``SharedValueHistory``).
  func value(in history: SharedValueHistory, atStep step: UInt64) -> Value { value }
  @usableFromInline var description: String { fatalError("abstract") }
}

/// A reference that can be changed: what ``Shared`` holds.
@usableFromInline
class WritableReference<Value>: ReadableReference<Value>, @unchecked Sendable {
  /// Runs `body` with exclusive access to the live value; observers learn of the change, and a persisted value is
  /// saved.
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R { fatalError("abstract") }
  /// Records `value` as what the assertion `tracker` now expects.
  func takeSnapshot(_ value: Value, in tracker: SharedChangeTracker) { fatalError("abstract") }
  var saveError: (any Error)? { nil }
  /// Saves the value to its persistence strategy now (nothing for a plain value).
  func save() async throws {}
}

/// Whether a test store's assertion runs on this thread (then shared reads give the values it expects): a
/// non-generic check, so the inlined read pays no generic metadata when it is false.
@usableFromInline
func isAssertingSharedState() -> Bool {
  SharedChangeTracker.asserting != nil
}

extension ReadableReference {
  /// The value to encode: as of a step of a ``SharedValueHistory`` if one is being encoded on this thread, else the
  /// current one (in an assertion, the one it expects).
  func valueForEncoding() -> Value {
    ThreadContext.current(key: ThreadContext.key).pointee.sharedValuesEncoded &+= 1
    if let (history, step) = SharedValueHistory.readingContext { return value(in: history, atStep: step) }
    return valueForAssertion()
  }

  /// The value an assertion expects, or the live value (the slow path of a read inside an assertion).
  @usableFromInline
  func valueForAssertion() -> Value {
    if let tracker = SharedChangeTracker.asserting, let snapshot = snapshot(in: tracker) { return snapshot }
    return value
  }
}

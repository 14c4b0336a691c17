/// A view of part of another reference's value, through a writable key path: `$syncUp.title`, `$list[id: id]`.
final class KeyPathReference<Base, Value>: WritableReference<Value>, @unchecked Sendable {
  private let base: WritableReference<Base>
  private let keyPath: WritableKeyPath<Base, Value>

  init(base: WritableReference<Base>, keyPath: WritableKeyPath<Base, Value>) {
    self.base = base
    self.keyPath = keyPath
  }

  override var value: Value { base.value[keyPath: keyPath] }
  override func value(in history: SharedValueHistory, atStep step: UInt64) -> Value {
    base.value(in: history, atStep: step)[keyPath: keyPath]
  }
  override var root: AnyObject { base.root }
  override var isLoading: Bool { base.isLoading }
  override var loadError: (any Error)? { base.loadError }
  override var saveError: (any Error)? { base.saveError }
  override func load() async throws { try await base.load() }
  override func save() async throws { try await base.save() }

  override func snapshot(in tracker: SharedChangeTracker) -> Value? {
    base.snapshot(in: tracker)?[keyPath: keyPath]
  }

  override func takeSnapshot(_ value: Value, in tracker: SharedChangeTracker) {
    var snapshot = base.snapshot(in: tracker) ?? base.value
    snapshot[keyPath: keyPath] = value
    base.takeSnapshot(snapshot, in: tracker)
  }

  override func isSame(as other: ReadableReference<Value>) -> Bool {
    guard let other = other as? KeyPathReference<Base, Value> else { return false }
    return other.keyPath == keyPath && other.base.isSame(as: base)
  }

  override func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try base.withLock { try body(&$0[keyPath: keyPath]) }
  }

  override var description: String { "\(base.description)[\(keyPath)]" }
}

/// A view of a reference to an optional value that is known to be non-nil: `Shared($list[id: id])`. Once the
/// value becomes nil (the element was removed), it keeps answering the last value it saw, and changes go nowhere.
final class UnwrappedReference<Value>: WritableReference<Value>, @unchecked Sendable {
  private let base: WritableReference<Value?>
  private let last: LastValue<Value>

  init(base: WritableReference<Value?>, initialValue: Value) {
    self.base = base
    self.last = LastValue(initialValue)
  }

  override var value: Value { last.unwrapping(base.value) }
  override func value(in history: SharedValueHistory, atStep step: UInt64) -> Value {
    base.value(in: history, atStep: step) ?? last.value
  }

  override var root: AnyObject { base.root }
  override var isLoading: Bool { base.isLoading }
  override var loadError: (any Error)? { base.loadError }
  override var saveError: (any Error)? { base.saveError }
  override func load() async throws { try await base.load() }
  override func save() async throws { try await base.save() }

  override func snapshot(in tracker: SharedChangeTracker) -> Value? {
    base.snapshot(in: tracker) ?? nil
  }

  override func takeSnapshot(_ value: Value, in tracker: SharedChangeTracker) {
    guard base.value != nil else { return }
    base.takeSnapshot(value, in: tracker)
  }

  override func isSame(as other: ReadableReference<Value>) -> Bool {
    guard let other = other as? UnwrappedReference<Value> else { return false }
    return other.base.isSame(as: base)
  }

  override func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try base.withLock { value in
      guard var unwrapped = value else { return try last.withLock(body) }
      defer {
        value = unwrapped
        last.set(unwrapped)
      }
      return try body(&unwrapped)
    }
  }

  override var description: String { "\(base.description)!" }
}

/// A read-only view of part of another reference's value: `$settings.isOn` on a ``SharedReader``, or any
/// key path a ``Shared`` cannot write through.
final class ReadKeyPathReference<Base, Value>: ReadableReference<Value>, @unchecked Sendable {
  private let base: ReadableReference<Base>
  private let keyPath: KeyPath<Base, Value>

  init(base: ReadableReference<Base>, keyPath: KeyPath<Base, Value>) {
    self.base = base
    self.keyPath = keyPath
  }

  override var value: Value { base.value[keyPath: keyPath] }
  override func value(in history: SharedValueHistory, atStep step: UInt64) -> Value {
    base.value(in: history, atStep: step)[keyPath: keyPath]
  }
  override var root: AnyObject { base.root }
  override var isLoading: Bool { base.isLoading }
  override var loadError: (any Error)? { base.loadError }
  override func load() async throws { try await base.load() }

  override func snapshot(in tracker: SharedChangeTracker) -> Value? {
    base.snapshot(in: tracker)?[keyPath: keyPath]
  }

  override func isSame(as other: ReadableReference<Value>) -> Bool {
    guard let other = other as? ReadKeyPathReference<Base, Value> else { return false }
    return other.keyPath == keyPath && other.base.isSame(as: base)
  }

  override var description: String { "\(base.description)[\(keyPath)]" }
}

/// A value that never changes: `SharedReader.constant(_:)`.
final class ConstantReference<Value>: ReadableReference<Value>, @unchecked Sendable {
  private let constant: Value

  init(_ value: Value) { constant = value }

  override var value: Value { constant }
  override var root: AnyObject { self }
  override func snapshot(in tracker: SharedChangeTracker) -> Value? { nil }
  override func isSame(as other: ReadableReference<Value>) -> Bool { other === self }
  override var description: String { "constant(\(describe(constant)))" }
}

/// The last non-nil value a view of an optional read: what it answers once the optional is nil. Guarded by a
/// recursive lock, behind a pointer as in ``RootReference``.
final class LastValue<Value>: @unchecked Sendable {
  private let lock = RecursiveLock()
  private let storage: UnsafeMutablePointer<Value>

  init(_ value: Value) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: value)
  }

  deinit {
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  /// `current` when it is non-nil (remembering it), the last non-nil value otherwise.
  func unwrapping(_ current: Value?) -> Value {
    guard let current else { return lock.withLock { storage.pointee } }
    set(current)
    return current
  }

  func set(_ value: Value) {
    lock.withLock { storage.pointee = value }
  }

  /// The last non-nil value, without changing it.
  var value: Value { lock.withLock { storage.pointee } }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try lock.withLock { try body(&storage.pointee) }
  }
}

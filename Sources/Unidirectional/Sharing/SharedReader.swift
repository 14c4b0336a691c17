/// A read-only view of a shared value: a feature that shows a value others change.
///
/// ```swift
/// struct Header: Reducer {
///   struct State: Equatable {
///     @SharedReader var username: String
///   }
/// }
/// let state = Header.State(username: $profile.username)   // from a Shared<Profile>
/// @SharedReader(.appStorage("theme")) var theme = "light"  // or from a persistence strategy
/// ```
@propertyWrapper
@dynamicMemberLookup
public struct SharedReader<Value>: @unchecked Sendable {
  let reference: ReadableReference<Value>

  init(reference: ReadableReference<Value>) {
    self.reference = reference
  }

  /// A read-only view of `base`.
  public init(_ base: Shared<Value>) {
    self.init(reference: base.reference)
  }

  /// The same reader: the property wrapper spelling of passing one on.
  public init(projectedValue: SharedReader<Value>) {
    self = projectedValue
  }

  /// A view of a shared optional that is non-nil now, or nil.
  public init?(_ base: SharedReader<Value?>) {
    guard let initialValue = base.wrappedValue else { return nil }
    self.init(reference: UnwrappedReaderReference(base: base.reference, initialValue: initialValue))
  }

  /// A value that never changes (for previews and tests).
  public static func constant(_ value: Value) -> Self {
    Self(reference: ConstantReference(value))
  }

  /// The current value (in a `TestStore` assertion, the value the test expects).
  public var wrappedValue: Value {
    if let tracker = SharedChangeTracker.asserting, let snapshot = reference.snapshot(in: tracker) {
      return snapshot
    }
    return reference.value
  }

  /// The reader itself, to pass on.
  public var projectedValue: SharedReader<Value> {
    get { self }
    set { self = newValue }
  }

  /// A read-only view of part of the value.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader<Member>(reference: ReadKeyPathReference(base: reference, keyPath: keyPath))
  }

  /// A read-only view of a value computed from this one.
  public func read<Member>(_ transform: @escaping @Sendable (Value) -> Member) -> SharedReader<Member> {
    SharedReader<Member>(reference: TransformReference(base: reference, transform: transform))
  }

  /// Whether the persistence strategy is loading the value.
  public var isLoading: Bool { reference.isLoading }
  /// The error of the last load, if it failed.
  public var loadError: (any Error)? { reference.loadError }

  /// Loads the value again from its persistence strategy.
  public func load() async throws { try await reference.load() }
}

/// `SharedReader($list[id: id])`: the read-only counterpart of ``UnwrappedReference``.
final class UnwrappedReaderReference<Value>: ReadableReference<Value>, @unchecked Sendable {
  private let base: ReadableReference<Value?>
  private let last: LastValue<Value>

  init(base: ReadableReference<Value?>, initialValue: Value) {
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
  override func load() async throws { try await base.load() }
  override func snapshot(in tracker: SharedChangeTracker) -> Value? { base.snapshot(in: tracker) ?? nil }

  override func isSame(as other: ReadableReference<Value>) -> Bool {
    guard let other = other as? UnwrappedReaderReference<Value> else { return false }
    return other.base.isSame(as: base)
  }

  override var description: String { "\(base.description)!" }
}

/// `$count.read { $0 == 0 }`: a value computed from another reference's.
final class TransformReference<Base, Value>: ReadableReference<Value>, @unchecked Sendable {
  private let base: ReadableReference<Base>
  private let transform: @Sendable (Base) -> Value

  init(base: ReadableReference<Base>, transform: @escaping @Sendable (Base) -> Value) {
    self.base = base
    self.transform = transform
  }

  override var value: Value { transform(base.value) }
  override func value(in history: SharedValueHistory, atStep step: UInt64) -> Value {
    transform(base.value(in: history, atStep: step))
  }
  override var root: AnyObject { base.root }
  override var isLoading: Bool { base.isLoading }
  override var loadError: (any Error)? { base.loadError }
  override func load() async throws { try await base.load() }
  override func snapshot(in tracker: SharedChangeTracker) -> Value? { base.snapshot(in: tracker).map(transform) }
  override func isSame(as other: ReadableReference<Value>) -> Bool { other === self }
  override var description: String { "\(base.description).read(\(typeName(Value.self)))" }
}

extension SharedReaderKey {
  /// A key with a default value, so `@Shared(.syncUps) var syncUps` needs no initial value at each use.
  ///
  /// ```swift
  /// extension SharedKey where Self == FileStorageKey<[SyncUp]>.Default {
  ///   static var syncUps: Self { Self[.fileStorage(.syncUpsURL), default: []] }
  /// }
  /// ```
  public typealias Default = SharedKeyDefault<Self>
}

/// A ``SharedReaderKey`` paired with the value a shared value starts from when nothing is stored. See
/// ``SharedReaderKey/Default``.
public struct SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey {
  /// The key itself.
  public let base: Base
  private let defaultValue: @Sendable () -> Base.Value

  /// `key` with `value` as its default.
  public static subscript(_ key: Base, default value: @autoclosure @escaping @Sendable () -> Base.Value) -> Self {
    Self(base: key, defaultValue: value)
  }

  /// The default value.
  public var initialValue: Base.Value { defaultValue() }

  public var id: Base.ID { base.id }

  public func load(context: LoadContext<Base.Value>, continuation: LoadContinuation<Base.Value>) {
    base.load(context: context, continuation: continuation)
  }

  public func subscribe(
    context: LoadContext<Base.Value>, subscriber: SharedSubscriber<Base.Value>
  ) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }
}

extension SharedKeyDefault: SharedKey where Base: SharedKey {
  public func save(_ value: Base.Value, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }
}

extension Shared {
  /// A shared value kept by `key`, starting from `wrappedValue` when `key` holds nothing yet (and when no other
  /// shared value already uses `key`: then it is that value).
  ///
  /// ```swift
  /// @Shared(.appStorage("count")) var count = 0
  /// ```
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) where Value: Sendable {
    self.init(reference: SharedValueSpace.current.reference(for: key, default: wrappedValue()))
  }

  /// A shared optional kept by `key`, nil when it holds nothing.
  @_disfavoredOverload
  public init<Wrapped>(_ key: some SharedKey<Value>) where Value == Wrapped?, Value: Sendable {
    self.init(wrappedValue: nil, key)
  }

  /// A shared value kept by `key`, starting from the key's default.
  public init<Key: SharedKey<Value>>(_ key: SharedKeyDefault<Key>) where Value: Sendable {
    self.init(wrappedValue: key.initialValue, key.base)
  }

  /// A shared value kept by `key`, starting from `wrappedValue` instead of the key's default.
  public init<Key: SharedKey<Value>>(wrappedValue: @autoclosure () -> Value, _ key: SharedKeyDefault<Key>)
  where Value: Sendable {
    self.init(wrappedValue: wrappedValue(), key.base)
  }

  /// A shared value loaded from `key` now, or the error if it holds no value or cannot be read.
  ///
  /// ```swift
  /// let settings = try await Shared(require: .fileStorage(settingsURL))
  /// ```
  public init(require key: some SharedKey<Value>) async throws where Value: Sendable {
    let value = try await loadRequired(key)
    self.init(reference: SharedValueSpace.current.reference(for: key, default: value, loadsInitialValue: false))
  }
}

extension SharedReader {
  /// A read-only shared value kept by `key`, starting from `wrappedValue` when it holds nothing.
  ///
  /// ```swift
  /// @SharedReader(.appStorage("isHapticsOn")) var isHapticsOn = true
  /// ```
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedReaderKey<Value>) where Value: Sendable {
    self.init(reference: SharedValueSpace.current.reference(for: key, default: wrappedValue()))
  }

  /// A read-only shared optional kept by `key`.
  @_disfavoredOverload
  public init<Wrapped>(_ key: some SharedReaderKey<Value>) where Value == Wrapped?, Value: Sendable {
    self.init(wrappedValue: nil, key)
  }

  /// A read-only shared value kept by `key`, starting from the key's default.
  public init<Key: SharedReaderKey<Value>>(_ key: SharedKeyDefault<Key>) where Value: Sendable {
    self.init(wrappedValue: key.initialValue, key.base)
  }

  /// A read-only shared value kept by `key`, starting from `wrappedValue` instead of the key's default.
  public init<Key: SharedReaderKey<Value>>(wrappedValue: @autoclosure () -> Value, _ key: SharedKeyDefault<Key>)
  where Value: Sendable {
    self.init(wrappedValue: wrappedValue(), key.base)
  }

  /// A read-only shared value loaded from `key` now, or the error if it holds no value or cannot be read.
  public init(require key: some SharedReaderKey<Value>) async throws where Value: Sendable {
    let value = try await loadRequired(key)
    self.init(reference: SharedValueSpace.current.reference(for: key, default: value, loadsInitialValue: false))
  }
}

/// The same initializers for a writable key, so that a key declared on `SharedKey` (`extension SharedKey where Self ==
/// …`) is found by `@SharedReader(.key)` too (a lookup on `SharedReaderKey` does not see `SharedKey`'s extensions).
extension SharedReader {
  @_disfavoredOverload
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) where Value: Sendable {
    self.init(reference: SharedValueSpace.current.reference(for: key, default: wrappedValue()))
  }

  @_disfavoredOverload
  public init<Wrapped>(_ key: some SharedKey<Value>) where Value == Wrapped?, Value: Sendable {
    self.init(wrappedValue: nil, key)
  }

  @_disfavoredOverload
  public init<Key: SharedKey<Value>>(_ key: SharedKeyDefault<Key>) where Value: Sendable {
    self.init(wrappedValue: key.initialValue, key.base)
  }

  @_disfavoredOverload
  public init<Key: SharedKey<Value>>(wrappedValue: @autoclosure () -> Value, _ key: SharedKeyDefault<Key>)
  where Value: Sendable {
    self.init(wrappedValue: wrappedValue(), key.base)
  }

  @_disfavoredOverload
  public init(require key: some SharedKey<Value>) async throws where Value: Sendable {
    let value = try await loadRequired(key)
    self.init(reference: SharedValueSpace.current.reference(for: key, default: value, loadsInitialValue: false))
  }
}

/// The error of `Shared(require:)` when the key holds no value.
public struct SharedKeyHoldsNoValue: Error, CustomStringConvertible {
  /// The key that was read.
  public let key: String
  public var description: String { "\(key) holds no value." }
}

private func loadRequired<Key: SharedReaderKey>(_ key: Key) async throws -> Key.Value {
  let value: Key.Value? = try await withUnsafeThrowingContinuation { continuation in
    key.load(
      context: .userInitiated,
      continuation: LoadContinuation("\(key)") { result in continuation.resume(with: result) })
  }
  guard let value else { throw SharedKeyHoldsNoValue(key: "\(key)") }
  return value
}

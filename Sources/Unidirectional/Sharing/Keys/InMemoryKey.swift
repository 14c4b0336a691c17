extension SharedReaderKey {
  /// A value kept in memory under `key` for the life of the process (of the test, in tests): every feature that
  /// uses the key shares it, and it starts from the first initial value given.
  ///
  /// ```swift
  /// @Shared(.inMemory("stats")) var stats = Stats()
  /// ```
  public static func inMemory<Value>(_ key: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(key)
  }
}

/// The key of ``SharedReaderKey/inMemory(_:)``.
public struct InMemoryKey<Value: Sendable>: SharedKey, CustomStringConvertible {
  private let key: String
  private let storage: InMemoryStorage

  fileprivate init(_ key: String) {
    @Dependency(\.defaultInMemoryStorage) var storage
    self.key = key
    self.storage = storage.resolved()
  }

  public var id: InMemoryKeyID { InMemoryKeyID(key: key, storage: storage) }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    // Unwrapped first: `nil as? Value` succeeds, with nil, when `Value` is an optional.
    if let stored = storage.value(forKey: key), let value = stored as? Value {
      continuation.resume(returning: value)
    } else {
      if let initialValue = context.initialValue { storage.setValue(initialValue, forKey: key) }
      continuation.resumeReturningInitialValue()
    }
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    SharedSubscription {}
  }

  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    storage.setValue(value, forKey: key)
    continuation.resume()
  }

  public var description: String { ".inMemory(\(customDump(key)))" }
}

/// The identity of an ``InMemoryKey``: its name and its storage.
public struct InMemoryKeyID: Hashable, Sendable {
  let key: String
  let storage: InMemoryStorage
}

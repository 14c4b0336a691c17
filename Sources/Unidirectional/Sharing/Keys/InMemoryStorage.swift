/// Where `.inMemory` keys keep their values: for the life of the process (of the test, in tests), never on disk.
///
/// ```swift
/// let store = Store(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.defaultInMemoryStorage = InMemoryStorage()   // a storage of its own
/// }
/// ```
public struct InMemoryStorage: Hashable, Sendable {
  private let values: Values?

  /// A new, empty storage.
  public init() {
    values = Values()
  }

  private init(values: Values?) {
    self.values = values
  }

  /// The storage of the running test (of the process, outside tests): the default.
  public static let scoped = InMemoryStorage(values: nil)

  /// This storage, with ``scoped`` resolved to the scope it stands for now.
  func resolved() -> InMemoryStorage {
    values == nil ? SharedValueSpace.current.inMemoryStorage : self
  }

  func value(forKey key: String) -> (any Sendable)? {
    resolvedValues.storage.withLock { $0[key] }
  }

  func setValue(_ value: any Sendable, forKey key: String) {
    resolvedValues.storage.withLock { $0[key] = value }
  }

  private var resolvedValues: Values {
    values ?? SharedValueSpace.current.inMemoryStorage.resolvedValues
  }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.values === rhs.values }
  public func hash(into hasher: inout Hasher) { hasher.combine(values.map(ObjectIdentifier.init)) }

  private final class Values: Sendable {
    let storage = LockIsolated<[String: any Sendable]>([:])
  }
}

private enum InMemoryStorageKey: DependencyKey {
  static let liveValue = InMemoryStorage.scoped
  static let testValue = InMemoryStorage.scoped
}

extension DependencyValues {
  /// Where `.inMemory` keys made here keep their values: the running test's (the process's) by default.
  public var defaultInMemoryStorage: InMemoryStorage {
    get { self[InMemoryStorageKey.self] }
    set { self[InMemoryStorageKey.self] = newValue }
  }
}

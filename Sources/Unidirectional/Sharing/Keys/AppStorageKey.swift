import Foundation

extension SharedReaderKey {
  /// A value kept in `UserDefaults` under `key` (the `defaultAppStorage` dependency: `.standard` live, a suite of
  /// the test's own in tests and previews).
  ///
  /// ```swift
  /// @Shared(.appStorage("hasSeenOnboarding")) var hasSeenOnboarding = false
  /// ```
  ///
  /// Supports `Bool`, `Int`, `Double`, `String`, `[String]`, `URL`, `Data`, `Date`, `RawRepresentable` values whose
  /// raw value is an `Int` or a `String`, any other `Codable` value (stored as JSON data), and optionals of each. The
  /// initial value is written to the defaults when they hold nothing for `key`, as swift-sharing does.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Bool> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Int> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Double> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<String> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<[String]> { AppStorageKey(key, store, .stringArray) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Data> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Date> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<URL> { AppStorageKey(key, store, .url) }

  @_disfavoredOverload
  public static func appStorage<Value: Codable & Sendable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Value> { AppStorageKey(key, store, .json()) }

  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Value.RawValue == Int, Self == AppStorageKey<Value> { AppStorageKey(key, store, .rawValue()) }

  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Value.RawValue == String, Self == AppStorageKey<Value> { AppStorageKey(key, store, .rawValue()) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Bool?> { AppStorageKey(key, store, .optional(.plain)) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Int?> { AppStorageKey(key, store, .optional(.plain)) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Double?> { AppStorageKey(key, store, .optional(.plain)) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<String?> { AppStorageKey(key, store, .optional(.plain)) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<[String]?> { AppStorageKey(key, store, .optional(.stringArray)) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Data?> { AppStorageKey(key, store, .optional(.plain)) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Date?> { AppStorageKey(key, store, .optional(.plain)) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<URL?> { AppStorageKey(key, store, .optional(.url)) }

  @_disfavoredOverload
  public static func appStorage<Value: Codable & Sendable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Value?> { AppStorageKey(key, store, .optional(.json())) }

  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Value.RawValue == Int, Self == AppStorageKey<Value?> { AppStorageKey(key, store, .optional(.rawValue())) }

  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Value.RawValue == String, Self == AppStorageKey<Value?> { AppStorageKey(key, store, .optional(.rawValue())) }
}

/// The key of `SharedReaderKey.appStorage(_:store:)`.
public struct AppStorageKey<Value: Sendable>: SharedKey, CustomStringConvertible {
  private let key: String
  private let store: StoreBox<Value>

  fileprivate init(_ key: String, _ store: UserDefaults?, _ coding: AppStorageCoding<Value>) {
    self.key = key
    self.store = StoreBox(store: store ?? DependencyValues.current.defaultAppStorage, key: key, coding: coding)
  }

  public var id: AppStorageKeyID { AppStorageKeyID(key: key, store: ObjectIdentifier(store.store)) }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    if let value = store.read() {
      continuation.resume(returning: value)
    } else {
      if let initialValue = context.initialValue { store.write(initialValue) }
      continuation.resumeReturningInitialValue()
    }
  }

  /// Follows writes of others to the key: `UserDefaults` posts `didChangeNotification` for a change to any key of
  /// the store (Apple platforms; elsewhere the test and preview stores post it, `.standard` does not), so a
  /// notification counts only when this key's stored object changed, and never for the key's own writes.
  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    let store = store
    let lastSeen = LockIsolated(StoredObject(store.object()))
    let observer = NotificationCenter.default.addObserver(
      forName: UserDefaults.didChangeNotification, object: store.store, queue: nil
    ) { _ in
      let current = StoredObject(store.object())
      let changed = lastSeen.withLock { lastSeen in
        defer { lastSeen = current }
        return lastSeen != current
      }
      guard changed, !AppStorageWrites.isWriting else { return }
      if let value = store.read() { subscriber.yield(value) } else { subscriber.yieldReturningInitialValue() }
    }
    let token = ObserverToken(observer)
    return SharedSubscription { NotificationCenter.default.removeObserver(token.observer) }
  }

  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    store.write(value)
    continuation.resume()
  }

  public var description: String { ".appStorage(\(customDump(key)))" }
}

/// The identity of an ``AppStorageKey``: its name and its defaults.
public struct AppStorageKeyID: Hashable, Sendable {
  let key: String
  let store: ObjectIdentifier
}

/// How a value is read from and written to `UserDefaults`.
struct AppStorageCoding<Value>: @unchecked Sendable {
  let read: @Sendable (UserDefaults, String) -> Value?
  let write: @Sendable (UserDefaults, String, Value) -> Void

  /// A property-list value stored as itself.
  static var plain: Self {
    Self(read: { $0.object(forKey: $1) as? Value }, write: { $0.set($2, forKey: $1) })
  }
}

extension AppStorageCoding where Value == [String] {
  static var stringArray: Self {
    Self(read: { $0.stringArray(forKey: $1) }, write: { $0.set($2, forKey: $1) })
  }
}

extension AppStorageCoding where Value: Codable & Sendable {
  /// Any other `Codable` value, stored as its JSON data; data that does not decode reads as no value.
  static func json() -> Self {
    Self(
      read: { store, key in store.data(forKey: key).flatMap { try? JSONDecoder().decode(Value.self, from: $0) } },
      write: { store, key, value in
        if let data = try? JSONEncoder().encode(value) { store.set(data, forKey: key) }
      })
  }
}

extension AppStorageCoding where Value == URL {
  static var url: Self {
    Self(read: { $0.url(forKey: $1) }, write: { $0.set($2, forKey: $1) })
  }
}

extension AppStorageCoding where Value: RawRepresentable & Sendable {
  static func rawValue() -> Self {
    Self(
      read: { store, key in (store.object(forKey: key) as? Value.RawValue).flatMap(Value.init(rawValue:)) },
      write: { store, key, value in store.set(value.rawValue, forKey: key) })
  }
}

extension AppStorageCoding {
  /// An optional: nil removes the stored value.
  static func optional<Wrapped>(_ wrapped: AppStorageCoding<Wrapped>) -> Self where Value == Wrapped? {
    Self(
      read: { store, key in wrapped.read(store, key).map { .some($0) } },
      write: { store, key, value in
        if let value { wrapped.write(store, key, value) } else { store.removeObject(forKey: key) }
      })
  }
}

private final class StoreBox<Value>: @unchecked Sendable {
  let store: UserDefaults
  let key: String
  let coding: AppStorageCoding<Value>
  init(store: UserDefaults, key: String, coding: AppStorageCoding<Value>) {
    self.store = store
    self.key = key
    self.coding = coding
  }
  func object() -> Any? { store.object(forKey: key) }
  func read() -> Value? { store.object(forKey: key) == nil ? nil : coding.read(store, key) }
  /// Writes `value`; the change notification this posts is not news to the key's own subscriptions.
  func write(_ value: Value) {
    AppStorageWrites.$isWriting.withValue(true) { coding.write(store, key, value) }
  }
}

private enum AppStorageWrites {
  /// Whether an app storage key is writing on this thread (`UserDefaults` posts its notification synchronously).
  @TaskLocal static var isWriting = false
}

/// What `UserDefaults` holds for a key, compared as plist objects (an object that cannot be compared counts as
/// changed).
private struct StoredObject: Equatable, @unchecked Sendable {
  let object: Any?
  init(_ object: Any?) { self.object = object }

  static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs.object, rhs.object) {
    case (nil, nil): return true
    case let (lhs?, rhs?):
      guard let lhs = lhs as? AnyHashable, let rhs = rhs as? AnyHashable else { return false }
      return lhs == rhs
    default: return false
    }
  }
}

private final class ObserverToken: @unchecked Sendable {
  let observer: any NSObjectProtocol
  init(_ observer: any NSObjectProtocol) { self.observer = observer }
}

/// `UserDefaults` is thread-safe but not declared `Sendable` everywhere.
private struct SendableDefaults: @unchecked Sendable {
  /// nil: the running test's suite (`.standard` in a live process).
  let defaults: UserDefaults?
}

private enum DefaultAppStorageKey: DependencyKey {
  static let liveValue = SendableDefaults(defaults: .standard)
  static let previewValue = SendableDefaults(defaults: nil)
  static let testValue = SendableDefaults(defaults: nil)
}

extension DependencyValues {
  /// The `UserDefaults` `.appStorage` keys made here use: `.standard` live; in tests and previews a suite of the
  /// running test's own, so tests never share or keep values.
  public var defaultAppStorage: UserDefaults {
    get { self[DefaultAppStorageKey.self].defaults ?? SharedValueSpace.current.userDefaults }
    set { self[DefaultAppStorageKey.self] = SendableDefaults(defaults: newValue) }
  }
}

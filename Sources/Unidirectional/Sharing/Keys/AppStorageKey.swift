import Foundation

extension SharedReaderKey {
  /// A value kept in `UserDefaults` under `key` (the `defaultAppStorage` dependency: `.standard` live, a suite of
  /// the test's own in tests and previews).
  ///
  /// ```swift
  /// @Shared(.appStorage("hasSeenOnboarding")) var hasSeenOnboarding = false
  /// ```
  ///
  /// Supports `Bool`, `Int`, `Double`, `String`, `URL`, `Data`, `Date`, `RawRepresentable` values whose raw value is
  /// an `Int` or a `String`, and optionals of each.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Bool> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Int> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Double> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<String> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Data> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Date> { AppStorageKey(key, store, .plain) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<URL> { AppStorageKey(key, store, .url) }

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
  where Self == AppStorageKey<Data?> { AppStorageKey(key, store, .optional(.plain)) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Date?> { AppStorageKey(key, store, .optional(.plain)) }

  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<URL?> { AppStorageKey(key, store, .optional(.url)) }

  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Value.RawValue == Int, Self == AppStorageKey<Value?> { AppStorageKey(key, store, .optional(.rawValue())) }

  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Value.RawValue == String, Self == AppStorageKey<Value?> { AppStorageKey(key, store, .optional(.rawValue())) }
}

/// The key of ``SharedReaderKey/appStorage(_:store:)-…``.
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
      continuation.resumeReturningInitialValue()
    }
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    // Another writer of the same defaults (where `UserDefaults` posts the notification: Apple platforms).
    let store = store
    let observer = NotificationCenter.default.addObserver(
      forName: UserDefaults.didChangeNotification, object: store.store, queue: nil
    ) { _ in
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
  func read() -> Value? { store.object(forKey: key) == nil ? nil : coding.read(store, key) }
  func write(_ value: Value) { coding.write(store, key, value) }
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
    get { self[DefaultAppStorageKey.self].defaults ?? SharingScope.current.userDefaults }
    set { self[DefaultAppStorageKey.self] = SendableDefaults(defaults: newValue) }
  }
}

import Foundation

/// Where shared values with a persistence key live: one scope per process, and in a test process one per test, so
/// that tests running in parallel never see each other's `.inMemory`, `.fileStorage` or `.appStorage` values, while
/// a test and the stores it makes share theirs (as swift-sharing quarantines each test).
final class SharingScope: @unchecked Sendable {
  let references = PersistentReferences()
  /// What `.inMemory` keys store by default.
  let inMemoryStorage = InMemoryStorage()
  /// What `.fileStorage` keys read and write by default in tests and previews: no real disk.
  let fileSystem = InMemoryFileSystem()
  /// What `.appStorage` keys use by default in tests and previews: a suite of its own.
  let userDefaults: UserDefaults

  private init(userDefaults: UserDefaults) {
    self.userDefaults = userDefaults
  }

  /// The scope of the running test, or the process's scope.
  static var current: SharingScope {
    guard let test = CurrentTest.id else { return process }
    return tests.withLock { scopes in
      if let scope = scopes[test] { return scope }
      let scope = SharingScope(userDefaults: temporaryDefaults())
      scopes[test] = scope
      return scope
    }
  }

  /// The live value for `key` in this scope, made from `initialValue` if there is none.
  func reference<Key: SharedKey>(
    for key: Key, default initialValue: @autoclosure () -> Key.Value, loadsInitialValue: Bool = true
  ) -> PersistentReference<Key> {
    references.reference(
      for: key, save: { key.save($0, context: $1, continuation: $2) }, default: initialValue,
      loadsInitialValue: loadsInitialValue)
  }

  /// The live value for the read-only `key` in this scope, made from `initialValue` if there is none.
  func reference<Key: SharedReaderKey>(
    for key: Key, default initialValue: @autoclosure () -> Key.Value, loadsInitialValue: Bool = true
  ) -> PersistentReference<Key> {
    references.reference(for: key, save: nil, default: initialValue, loadsInitialValue: loadsInitialValue)
  }

  private static let process = SharingScope(
    userDefaults: DependencyContext.detected == .live ? .standard : temporaryDefaults())
  private static let tests = LockIsolated<[AnyHashable: SharingScope]>([:])

  private static func temporaryDefaults() -> UserDefaults {
    let suite = "unidirectional.sharing.\(UUID().uuidString)"
    #if canImport(Darwin)
      return UserDefaults(suiteName: suite) ?? .standard
    #else
      return NotifyingUserDefaults(suiteName: suite) ?? .standard
    #endif
  }
}

#if !canImport(Darwin)
  /// Defaults that announce each change, as Apple's `UserDefaults` does and swift-corelibs-foundation's does not: so
  /// that a test (or preview) that writes to its defaults directly, as another part of an app would, is seen by the
  /// `.appStorage` values that read the key.
  private final class NotifyingUserDefaults: UserDefaults {
    override func set(_ value: Any?, forKey key: String) {
      super.set(value, forKey: key)
      NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: self)
    }

    override func removeObject(forKey key: String) {
      super.removeObject(forKey: key)
      NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: self)
    }
  }
#endif

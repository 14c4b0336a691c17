import Foundation

/// Where shared values with a persistence key live: one space per process, and in a test process one per test, so
/// that tests running in parallel never see each other's `.inMemory`, `.fileStorage` or `.appStorage` values, while
/// a test and the stores it makes share theirs (as swift-sharing quarantines each test).
final class SharedValueSpace: @unchecked Sendable {
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

  /// The space of the running test, or the process's space.
  static var current: SharedValueSpace {
    guard let test = CurrentTest.id else { return process }
    return tests.withLock { spaces in
      if let space = spaces[test] { return space }
      let space = SharedValueSpace(userDefaults: temporaryDefaults())
      spaces[test] = space
      return space
    }
  }

  /// The live value for `key` in this space, made from `initialValue` if there is none.
  func reference<Key: SharedKey>(
    for key: Key, default initialValue: @autoclosure () -> Key.Value, loadsInitialValue: Bool = true
  ) -> PersistentReference<Key> {
    references.reference(
      for: key, save: { key.save($0, context: $1, continuation: $2) }, default: initialValue,
      loadsInitialValue: loadsInitialValue)
  }

  /// The live value for the read-only `key` in this space, made from `initialValue` if there is none.
  func reference<Key: SharedReaderKey>(
    for key: Key, default initialValue: @autoclosure () -> Key.Value, loadsInitialValue: Bool = true
  ) -> PersistentReference<Key> {
    references.reference(for: key, save: nil, default: initialValue, loadsInitialValue: loadsInitialValue)
  }

  private static let process = SharedValueSpace(
    userDefaults: DependencyContext.detected == .live ? .standard : temporaryDefaults())
  private static let tests = LockIsolated<[AnyHashable: SharedValueSpace]>([:])

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

import Foundation
import Observation
import Testing
@testable import Unidirectional
@testable import UnidirectionalTesting

/// Persistence strategies: `.inMemory`, `.fileStorage`, `.appStorage`, key defaults, custom keys, and the
/// quarantine of each test's values (swift-sharing's InMemory, FileStorage, AppStorage and Default tests, ported
/// where they need no SwiftUI or Combine).
@Suite struct PersistenceTests {
  struct Settings: Codable, Equatable, Sendable {
    var theme = "light"
    var volume = 5
  }

  static let settingsURL = URL(fileURLWithPath: "/unidirectional-tests/settings.json")

  // MARK: In memory

  @Test func everyUseOfAnInMemoryKeySharesOneValueThatStartsFromTheFirstInitialValue() {
    @Shared(.inMemory("count")) var first = 1
    @Shared(.inMemory("count")) var second = 2
    #expect(first == 1)
    #expect(second == 1)
    $second.withLock { $0 = 3 }
    #expect(first == 3)
  }

  @Test func anInMemoryValueOutlivesItsLastUse() {
    do {
      @Shared(.inMemory("kept")) var kept = 1
      $kept.withLock { $0 = 2 }
    }
    @Shared(.inMemory("kept")) var again = 5
    #expect(again == 2)
  }

  @Test func anInitialValueIsEvaluatedOnlyWhenNoValueExists() {
    let evaluated = LockIsolated(0)
    @Shared(.inMemory("lazy")) var first: Int = {
      evaluated.withLock { $0 += 1 }
      return 1
    }()
    @Shared(.inMemory("lazy")) var second: Int = {
      evaluated.withLock { $0 += 1 }
      return 2
    }()
    #expect(first == 1 && second == 1)
    #expect(evaluated.value == 1)
  }

  /// Each case is a test of its own: if cases shared the in-memory values, a later case would find an earlier
  /// case's number instead of the initial 0.
  @Test(arguments: [1, 2, 3, 4])
  func eachTestHasItsOwnValues(number: Int) {
    @Shared(.inMemory("quarantined")) var value = 0
    @Shared(.appStorage("quarantined")) var stored = 0
    @Shared(.fileStorage(Self.settingsURL)) var settings = Settings()
    #expect(value == 0)
    #expect(stored == 0)
    #expect(settings == Settings())
    $value.withLock { $0 = number }
    $stored.withLock { $0 = number }
    $settings.withLock { $0.volume = number }
  }

  @Test func theCoreFindsTheCurrentTestProviderByItsMangledName() {
    #expect(_mangledTypeName(CurrentTestProvider.self) == CurrentTest.currentTestProviderName)
  }

  // MARK: Defaults

  @Test func aDefaultKeyNeedsNoInitialValueAndSharesItsBaseKeysValue() {
    @Shared(.isOn) var isOn
    #expect(isOn == false)
    @Shared(.isOn) var isOnTooWithADifferentDefault = true
    @Shared(.appStorage("isOn")) var base = true
    #expect(isOnTooWithADifferentDefault == false)
    $base.withLock { $0 = true }
    #expect(isOn)
    #expect(isOnTooWithADifferentDefault)
  }

  @Test func aReaderOfADefaultKeySeesTheWritersChanges() {
    @Shared(.appStorage("isOn")) var isOn = false
    @SharedReader(.isOn) var reader
    $isOn.withLock { $0 = true }
    #expect(reader)
  }

  // MARK: File storage

  @Test func aFileStorageValueIsSavedAsJSONInTheTestsOwnFiles() throws {
    let files = SharedValueSpace.current.fileSystem
    @Shared(.fileStorage(Self.settingsURL)) var settings = Settings()
    #expect(files[Self.settingsURL] == nil, "nothing is written until the value changes")
    $settings.withLock { $0.theme = "dark" }
    let saved = try JSONDecoder().decode(Settings.self, from: try #require(files[Self.settingsURL]))
    #expect(saved == Settings(theme: "dark"))
  }

  @Test func aFileStorageValueIsLoadedFromItsFile() throws {
    let files = InMemoryFileSystem()
    files.write(try JSONEncoder().encode(Settings(theme: "dark", volume: 9)), to: Self.settingsURL)
    let settings = withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      Shared(wrappedValue: Settings(), .fileStorage(Self.settingsURL))
    }
    #expect(settings.wrappedValue == Settings(theme: "dark", volume: 9))
  }

  @Test func aFileChangedByAnotherProcessIsReloaded() throws {
    let files = InMemoryFileSystem()
    let settings = withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      Shared(wrappedValue: Settings(), .fileStorage(Self.settingsURL))
    }
    files.write(try JSONEncoder().encode(Settings(theme: "solarized")), to: Self.settingsURL)
    #expect(settings.wrappedValue.theme == "solarized")
    files.removeFile(at: Self.settingsURL)
    #expect(settings.wrappedValue == Settings(), "a removed file brings the initial value back")
  }

  @Test func aFileThatCannotBeDecodedKeepsTheValueAndReportsTheError() throws {
    let files = InMemoryFileSystem()
    files.write(Data("not json".utf8), to: Self.settingsURL)
    let settings = withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      Shared(wrappedValue: Settings(theme: "initial"), .fileStorage(Self.settingsURL))
    }
    #expect(settings.wrappedValue.theme == "initial")
    #expect(settings.loadError != nil)
  }

  @Test func changesWithinOneDebounceWindowAreCoalescedIntoOneWrite() async throws {
    let files = InMemoryFileSystem()
    let clock = TestClock()
    let settings = withDependencies {
      $0.defaultFileStorage = .inMemory(files, debounce: .seconds(1))
      $0.clock = clock
    } operation: {
      Shared(wrappedValue: Settings(), .fileStorage(Self.settingsURL))
    }
    for volume in 1...1_000 { settings.withLock { $0.volume = volume } }
    #expect(files.writeCount == 0)
    await clock.advance(by: .milliseconds(999))
    #expect(files.writeCount == 0)
    await clock.advance(by: .milliseconds(1))
    #expect(files.writeCount == 1)
    let saved = try JSONDecoder().decode(Settings.self, from: try #require(files[Self.settingsURL]))
    #expect(saved.volume == 1_000)

    settings.withLock { $0.volume = 0 }
    await clock.advance(by: .seconds(1))
    #expect(files.writeCount == 2)
  }

  @Test func aSaveAskedForWritesAtOnceAndEndsTheWindow() async throws {
    let files = InMemoryFileSystem()
    let clock = TestClock()
    let settings = withDependencies {
      $0.defaultFileStorage = .inMemory(files, debounce: .seconds(1))
      $0.clock = clock
    } operation: {
      Shared(wrappedValue: Settings(), .fileStorage(Self.settingsURL))
    }
    settings.withLock { $0.theme = "dark" }
    try await settings.save()
    #expect(files.writeCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(files.writeCount == 1)
  }

  @Test func aPendingWriteIsFlushedWhenTheLastUseGoesAway() throws {
    let files = InMemoryFileSystem()
    do {
      let settings = withDependencies {
        $0.defaultFileStorage = .inMemory(files, debounce: .seconds(1))
        $0.clock = TestClock()
      } operation: {
        Shared(wrappedValue: Settings(), .fileStorage(Self.settingsURL))
      }
      settings.withLock { $0.theme = "dark" }
      #expect(files.writeCount == 0)
    }
    #expect(files.writeCount == 1)
    let saved = try JSONDecoder().decode(Settings.self, from: try #require(files[Self.settingsURL]))
    #expect(saved.theme == "dark")
  }

  @Test func onTheRealDiskWritesAreAtomicDebouncedAndExternalChangesAreReloaded() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unidirectional-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("settings.json")
    let clock = TestClock()
    let settings = withDependencies {
      $0.defaultFileStorage = .fileSystem
      $0.clock = clock
    } operation: {
      Shared(wrappedValue: Settings(), .fileStorage(url))
    }
    settings.withLock { $0.theme = "dark" }
    #expect(!FileManager.default.fileExists(atPath: url.path))
    await clock.advance(by: .seconds(1))
    let saved = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: url))
    #expect(saved.theme == "dark")

    // Another process replaces the file; the watcher reports it on its own queue.
    let reloaded = await settings.nextChange {
      try? JSONEncoder().encode(Settings(theme: "solarized")).write(to: url, options: .atomic)
    }
    #expect(reloaded)
    #expect(settings.wrappedValue.theme == "solarized")
  }

  // MARK: App storage

  @Test func appStorageKeepsEachSupportedTypeInTheTestsOwnDefaults() {
    enum Theme: String, Sendable { case light, dark }
    @Shared(.appStorage("bool")) var bool = false
    @Shared(.appStorage("int")) var int = 0
    @Shared(.appStorage("double")) var double = 0.0
    @Shared(.appStorage("string")) var string = ""
    @Shared(.appStorage("url")) var url = URL(fileURLWithPath: "/")
    @Shared(.appStorage("data")) var data = Data()
    @Shared(.appStorage("theme")) var theme = Theme.light
    @Shared(.appStorage("optional")) var optional: String?

    $bool.withLock { $0 = true }
    $int.withLock { $0 = 42 }
    $double.withLock { $0 = 1.5 }
    $string.withLock { $0 = "Blob" }
    $url.withLock { $0 = URL(fileURLWithPath: "/tmp") }
    $data.withLock { $0 = Data([1, 2]) }
    $theme.withLock { $0 = .dark }
    $optional.withLock { $0 = "set" }

    let defaults = DependencyValues.current.defaultAppStorage
    #expect(defaults.bool(forKey: "bool"))
    #expect(defaults.integer(forKey: "int") == 42)
    #expect(defaults.double(forKey: "double") == 1.5)
    #expect(defaults.string(forKey: "string") == "Blob")
    #expect(defaults.url(forKey: "url") == URL(fileURLWithPath: "/tmp"))
    #expect(defaults.data(forKey: "data") == Data([1, 2]))
    #expect(defaults.string(forKey: "theme") == "dark")
    #expect(defaults.string(forKey: "optional") == "set")
    #expect(defaults !== UserDefaults.standard)

    $optional.withLock { $0 = nil }
    #expect(defaults.object(forKey: "optional") == nil)
  }

  @Test func appStorageLoadsWhatTheDefaultsHold() {
    let defaults = DependencyValues.current.defaultAppStorage
    defaults.set(7, forKey: "preset")
    @Shared(.appStorage("preset")) var preset = 0
    #expect(preset == 7)
  }

  // MARK: Custom keys

  @Test func aCustomKeyLoadsAndSavesThroughItsOwnStore() {
    let store = LockIsolated<[String: Int]>(["score": 10])
    @Shared(DictionaryKey(name: "score", store: store)) var score = 0
    #expect(score == 10)
    $score.withLock { $0 += 1 }
    #expect(store.value["score"] == 11)
  }

  @Test func requiringAKeyThatHoldsNothingThrows() async {
    let store = LockIsolated<[String: Int]>([:])
    await #expect(throws: SharedKeyHoldsNoValue.self) {
      _ = try await Shared(require: DictionaryKey(name: "missing", store: store))
    }
    store.withLock { $0["present"] = 3 }
    let present = try? await Shared(require: DictionaryKey(name: "present", store: store))
    #expect(present?.wrappedValue == 3)
  }
}

/// A key over a dictionary: the smallest custom persistence strategy.
struct DictionaryKey: SharedKey {
  let name: String
  let store: LockIsolated<[String: Int]>
  var id: String { name }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    if let value = store.value[name] {
      continuation.resume(returning: value)
    } else {
      continuation.resumeReturningInitialValue()
    }
  }

  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    SharedSubscription {}
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    store.withLock { $0[name] = value }
    continuation.resume()
  }
}

extension SharedReaderKey where Self == AppStorageKey<Bool>.Default {
  static var isOn: Self { Self[.appStorage("isOn"), default: false] }
}

extension Shared where Value: Sendable {
  /// Runs `change`, then waits for the change notification it causes on another thread (a file watcher). A 10 s
  /// bound turns a notification that never comes into a failure instead of a hang; it never paces the test.
  func nextChange(after change: () -> Void) async -> Bool {
    let notified = AsyncStream<Bool>.makeStream()
    withObservationTracking {
      _ = wrappedValue
    } onChange: {
      notified.continuation.yield(true)
    }
    change()
    let timeout = Task {
      try? await Task.sleep(for: .seconds(10))
      notified.continuation.yield(false)
    }
    defer { timeout.cancel() }
    for await didChange in notified.stream { return didChange }
    return false
  }
}

import Foundation
import Testing
@testable import Unidirectional

/// swift-sharing's `AppStorageTests` and TCA's `testPersistenceKeySubscription`, ported: `.appStorage("key")` keeps
/// a value in the test's own `UserDefaults` (`@Dependency(\.defaultAppStorage)`), writes the initial value there
/// when the key holds nothing, and follows writes others make to the defaults directly.
@Suite struct AppStorageTests {
  /// The test's own defaults: what `.appStorage` keys made in this test use.
  var store: UserDefaults { DependencyValues.current.defaultAppStorage }

  @Test func bool() {
    @Shared(.appStorage("bool")) var bool = true
    #expect(store.bool(forKey: "bool"))
    store.set(false, forKey: "bool")
    #expect(!bool)
  }

  @Test func int() {
    @Shared(.appStorage("int")) var int = 42
    #expect(store.integer(forKey: "int") == 42)
    store.set(1729, forKey: "int")
    #expect(int == 1729)
  }

  @Test func double() {
    @Shared(.appStorage("double")) var double = 1.2
    #expect(store.double(forKey: "double") == 1.2)
    store.set(3.4, forKey: "double")
    #expect(double == 3.4)
  }

  @Test func string() {
    @Shared(.appStorage("string")) var string = "Blob"
    #expect(store.string(forKey: "string") == "Blob")
    store.set("Blob, Jr.", forKey: "string")
    #expect(string == "Blob, Jr.")
  }

  @Test func stringArray() {
    @Shared(.appStorage("stringArray")) var stringArray = ["Blob"]
    #expect(store.stringArray(forKey: "stringArray") == ["Blob"])
    store.set(["Blob", "Blob, Jr."], forKey: "stringArray")
    #expect(stringArray == ["Blob", "Blob, Jr."])
  }

  @Test func url() {
    @Shared(.appStorage("url")) var url = URL(fileURLWithPath: "/dev")
    #expect(store.url(forKey: "url") == URL(fileURLWithPath: "/dev"))
    store.set(URL(fileURLWithPath: "/tmp"), forKey: "url")
    #expect(url == URL(fileURLWithPath: "/tmp/"))
  }

  @Test func optionalURL() {
    @Shared(.appStorage("url")) var url: URL? = URL(fileURLWithPath: "/dev")
    #expect(store.url(forKey: "url") == URL(fileURLWithPath: "/dev"))
    store.set(URL(fileURLWithPath: "/tmp"), forKey: "url")
    #expect(url == URL(fileURLWithPath: "/tmp/"))
    $url.withLock { $0 = nil }
    #expect(url == nil)
    #expect(store.object(forKey: "url") == nil)
  }

  @Test func data() {
    @Shared(.appStorage("data")) var data = Data([4, 2])
    #expect(store.data(forKey: "data") == Data([4, 2]))
    store.set(Data([1, 7, 2, 9]), forKey: "data")
    #expect(data == Data([1, 7, 2, 9]))
  }

  @Test func date() {
    @Shared(.appStorage("date")) var date = Date(timeIntervalSinceReferenceDate: 0)
    #expect(store.object(forKey: "date") as? Date == Date(timeIntervalSinceReferenceDate: 0))
    store.set(Date(timeIntervalSince1970: 0), forKey: "date")
    #expect(date == Date(timeIntervalSince1970: 0))
  }

  @Test func codable() throws {
    struct Item: Codable, Equatable, Sendable {
      var id: Int
    }
    @Shared(.appStorage("codable")) var item = Item(id: 42)
    let data = try #require(store.data(forKey: "codable"))
    #expect(try JSONDecoder().decode(Item.self, from: data) == Item(id: 42))
    store.set(try JSONEncoder().encode(Item(id: 1729)), forKey: "codable")
    #expect(item == Item(id: 1729))
  }

  @Test func rawRepresentableInt() {
    struct ID: RawRepresentable, Equatable, Sendable {
      var rawValue: Int
    }
    @Shared(.appStorage("raw-representable-int")) var id = ID(rawValue: 42)
    #expect(store.integer(forKey: "raw-representable-int") == 42)
    store.set(1729, forKey: "raw-representable-int")
    #expect(id == ID(rawValue: 1729))
  }

  @Test func rawRepresentableString() {
    struct ID: RawRepresentable, Equatable, Sendable {
      var rawValue: String
    }
    @Shared(.appStorage("raw-representable-string")) var id = ID(rawValue: "Blob")
    #expect(store.string(forKey: "raw-representable-string") == "Blob")
    store.set("Blob, Jr.", forKey: "raw-representable-string")
    #expect(id == ID(rawValue: "Blob, Jr."))
  }

  @Test func aCodableRawRepresentableIsStoredAsItsRawValue() {
    struct ID: Codable, RawRepresentable, Equatable, Sendable {
      var rawValue: String
    }
    @Shared(.appStorage("raw-representable-string")) var id = ID(rawValue: "Blob")
    #expect(store.string(forKey: "raw-representable-string") == "Blob")
    store.set("Blob, Jr.", forKey: "raw-representable-string")
    #expect(id == ID(rawValue: "Blob, Jr."))
  }

  @Test func optional() {
    @Shared(.appStorage("bool")) var bool: Bool?
    #expect(store.object(forKey: "bool") == nil)
    store.set(false, forKey: "bool")
    #expect(bool == false)
    $bool.withLock { $0 = nil }
    #expect(store.object(forKey: "bool") == nil)
  }

  @Test func optionalWithAnInitialValue() {
    @Shared(.appStorage("bool")) var bool: Bool? = true
    #expect(store.bool(forKey: "bool"))
    store.set(false, forKey: "bool")
    #expect(bool == false)
    store.removeObject(forKey: "bool")
    #expect(bool == true, "nothing stored: the initial value")
    store.set(Optional(false), forKey: "bool")
    #expect(bool == false)
    store.set(Bool?.none, forKey: "bool")
    #expect(bool == true)
    $bool.withLock { $0 = nil }
    #expect(bool == nil)
    #expect(store.object(forKey: "bool") == nil)
  }

  @Test func keysWithAnyCharactersAreFollowed() {
    // swift-sharing warns about these (key-value observation cannot follow them); here every key is followed the
    // same way, through the defaults' change notification.
    @Shared(.appStorage("co.pointfree.isEnabled")) var isEnabled = false
    @Shared(.appStorage("@count")) var count = 0
    store.set(true, forKey: "co.pointfree.isEnabled")
    store.set(42, forKey: "@count")
    #expect(isEnabled)
    #expect(count == 42)
  }

  @Test func aWriteToAnotherKeyIsNotAChange() {
    @Shared(.appStorage("count")) var count = 0
    let changes = LockIsolated(0)
    let key: AppStorageKey<Int> = .appStorage("count")
    let subscription = key.subscribe(
      context: .userInitiated, subscriber: SharedSubscriber { _ in changes.withLock { $0 += 1 } })
    store.set("unrelated", forKey: "name")
    $count.withLock { $0 = 1 }
    #expect(changes.value == 0, "a key's own writes and other keys' writes are not news to it")
    store.set(2, forKey: "count")
    #expect(changes.value == 1)
    #expect(count == 2)
    subscription.cancel()
  }

  @Test func aSubscriptionSeesWritesUntilItIsCancelled() async {
    let key: AppStorageKey<Int> = .appStorage("shared")
    let changes = LockIsolated<[Int?]>([])
    let subscription = key.subscribe(
      context: .userInitiated,
      subscriber: SharedSubscriber { result in changes.withLock { $0.append(try? result.get()) } })
    store.set(1, forKey: "shared")
    store.set(42, forKey: "shared")
    subscription.cancel()
    store.set(123, forKey: "shared")
    #expect(changes.value == [1, 42])
    await confirmation { confirm in
      key.load(
        context: .userInitiated,
        continuation: LoadContinuation { result in
          #expect((try? result.get()) == 123)
          confirm()
        })
    }
  }

  /// TCA's `testReEntrantSharedSubscriptionDependencyResolution`, without its real-time sleep: a dependency whose
  /// initializer writes the defaults, resolved on another task while a shared value follows the key.
  @Test func aWriteMadeByADependencysInitializerOnAnotherTaskIsFollowed() async {
    struct Client: TestDependencyKey, Sendable {
      init() { DependencyValues.current.defaultAppStorage.set(42, forKey: "count") }
      static var testValue: Client { Client() }
    }
    @Shared(.appStorage("count")) var count = 0
    await Task {
      @Dependency(Client.self) var client
      _ = client
    }
    .value
    #expect(count == 42)
  }
}

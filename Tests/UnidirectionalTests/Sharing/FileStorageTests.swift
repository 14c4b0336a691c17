import Foundation
import Testing
@testable import Unidirectional

/// swift-sharing's `FileStorageTests`, ported: `.fileStorage(url)` keeps a value as JSON in a file, loads it on first
/// use, saves changes (coalesced over one second on the `clock` dependency when the storage debounces) and follows
/// changes others make to the file. The first suite runs on files in memory, as tests do by default; the second on
/// the real disk, in a directory of its own, waiting (bounded) only for the file watcher.
///
/// One difference from swift-sharing is by design: it writes the first change at once and throttles the rest, here
/// every change of a window is written once, at its end (`PersistenceTests` shows 1,000 changes making one write).
@Suite struct FileStorageTests {
  let files = InMemoryFileSystem()

  @Test func aChangeIsSavedAsJSON() throws {
    withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      @Shared(.fileStorage(.usersURL)) var users = [User]()
      #expect($users.loadError == nil)
      // swift-sharing also writes an empty file here, to have a file to watch; this watches the directory.
      #expect(files[.usersURL] == nil)
      $users.withLock { $0.append(.blob) }
      #expect(files.users(at: .usersURL) == [.blob])
    }
  }

  @Test func aKeyMayEncodeAndDecodeItsOwnWay() {
    withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      @Shared(.utf8String) var string = ""
      #expect($string.loadError == nil)
      $string.withLock { $0 = "hello" }
      #expect(files[.utf8StringURL].map { String(decoding: $0, as: UTF8.self) } == "hello")
    }
  }

  @Test func changesWithinAWindowAreWrittenTogetherAtItsEnd() async throws {
    let clock = TestClock()
    await withDependencies {
      $0.defaultFileStorage = .inMemory(files, debounce: .seconds(1))
      $0.clock = clock
    } operation: {
      @Shared(.fileStorage(.usersURL)) var users = [User]()
      #expect(files.users(at: .usersURL) == nil)

      $users.withLock { $0.append(.blob) }
      $users.withLock { $0.append(.blobJr) }
      await clock.advance(by: .seconds(1) - .milliseconds(1))
      #expect(files.users(at: .usersURL) == nil)

      $users.withLock { $0.append(.blobSr) }
      await clock.advance(by: .milliseconds(1))
      #expect(files.users(at: .usersURL) == [.blob, .blobJr, .blobSr])
      #expect(files.writeCount == 1)

      await clock.advance(by: .seconds(1))
      #expect(files.writeCount == 1, "no change, no write")

      await clock.advance(by: .seconds(0.5))
      $users.withLock { $0.append(.blobEsq) }
      await clock.advance(by: .seconds(1))
      #expect(files.users(at: .usersURL) == [.blob, .blobJr, .blobSr, .blobEsq])
      #expect(files.writeCount == 2)
    }
  }

  @Test func theTestDefaultWritesEachChangeAtOnce() async throws {
    let clock = TestClock()
    await withDependencies {
      $0.defaultFileStorage = .inMemory(files)
      $0.clock = clock
    } operation: {
      @Shared(.fileStorage(.usersURL)) var users = [User]()
      $users.withLock { $0.append(.blob) }
      #expect(files.users(at: .usersURL) == [.blob])
      await clock.advance(by: .seconds(2))
      $users.withLock { $0.append(.blobJr) }
      #expect(files.users(at: .usersURL) == [.blob, .blobJr])
    }
  }

  @Test func eachFileKeepsItsOwnValue() throws {
    withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      @Shared(.fileStorage(.usersURL)) var users = [User]()
      @Shared(.fileStorage(.otherUsersURL)) var otherUsers = [User]()

      $users.withLock { $0.append(.blob) }
      #expect(files.users(at: .usersURL) == [.blob])
      #expect(files.users(at: .otherUsersURL) == nil)

      $otherUsers.withLock { $0.append(.blobJr) }
      #expect(files.users(at: .usersURL) == [.blob])
      #expect(files.users(at: .otherUsersURL) == [.blobJr])
    }
  }

  @Test func aFileIsReadNotRewrittenOnFirstUse() throws {
    files.write(try JSONEncoder().encode([User.blob]), to: .usersURL)
    withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      @Shared(.fileStorage(.usersURL)) var users = [User]()
      #expect(users == [.blob])
      #expect(files.users(at: .usersURL) == [.blob])
      #expect(files.writeCount == 1)
    }
  }

  @Test func aFileThatDoesNotDecodeIsALoadErrorUntilTheNextSave() throws {
    files.write(Data("corrupt".utf8), to: .usersURL)
    try withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      @Shared(.fileStorage(.usersURL)) var users = [User]()
      let loadError = try #require($users.loadError)
      #expect(loadError is DecodingError)
      #expect(users == [])
      $users.withLock { $0.append(User(id: 1, name: "Blob")) }
      #expect($users.loadError == nil)
    }
  }

  @Test func eachInMemoryStorageIsAFileSystemOfItsOwn() {
    let shared1 = withDependencies {
      $0.defaultFileStorage = .inMemory
    } operation: {
      Shared(wrappedValue: User(id: 1, name: "Blob"), .fileStorage(.userURL))
    }
    let shared2 = withDependencies {
      $0.defaultFileStorage = .inMemory
    } operation: {
      Shared(wrappedValue: User(id: 1, name: "Blob"), .fileStorage(.userURL))
    }
    shared1.withLock { $0.name = "Blob Jr" }
    #expect(shared1.wrappedValue.name == "Blob Jr")
    #expect(shared2.wrappedValue.name == "Blob")
    shared2.withLock { $0.name = "Blob Sr" }
    #expect(shared1.wrappedValue.name == "Blob Jr")
    #expect(shared2.wrappedValue.name == "Blob Sr")
  }

  @Test func whatWasWrittenIsNotReadBackIntoTheValue() {
    // The encoder keeps two numbers: the file holds [1, 2] while the value keeps all three.
    let numbers = FileStorageKey<[Int]>.Default[
      .fileStorage(
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("numbers.json"),
        decode: { try JSONDecoder().decode([Int].self, from: $0) },
        encode: { try JSONEncoder().encode(Array($0.prefix(2))) }
      ),
      default: []
    ]
    let shared = Shared(numbers)
    #expect(shared.wrappedValue == [])
    shared.withLock { $0.append(contentsOf: [1, 2, 3]) }
    #expect(shared.wrappedValue == [1, 2, 3])
  }
}

// MARK: - Fixtures

extension FileStorageTests {
  struct User: Codable, Equatable, Identifiable, Sendable {
    let id: Int
    var name: String
    static let blob = User(id: 1, name: "Blob")
    static let blobJr = User(id: 2, name: "Blob Jr.")
    static let blobSr = User(id: 3, name: "Blob Sr.")
    static let blobEsq = User(id: 4, name: "Blob Esq.")
  }
}

extension InMemoryFileSystem {
  /// The users the file holds: nil when there is no file, it is empty, or it does not decode.
  fileprivate func users(at url: URL) -> [FileStorageTests.User]? {
    guard let data = self[url], !data.isEmpty else { return nil }
    return try? JSONDecoder().decode([FileStorageTests.User].self, from: data)
  }
}

extension SharedKey where Self == FileStorageKey<String> {
  fileprivate static var utf8String: Self {
    .fileStorage(
      .utf8StringURL,
      decode: { data in String(decoding: data, as: UTF8.self) },
      encode: { string in Data(string.utf8) }
    )
  }
}

extension URL {
  fileprivate static let usersURL = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("file.json")
  fileprivate static let otherUsersURL = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("another-file.json")
  fileprivate static let userURL = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("user.json")
  fileprivate static let utf8StringURL = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("utf8-string.json")
}

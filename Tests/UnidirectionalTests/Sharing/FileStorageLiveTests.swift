import Foundation
import Testing
@testable import Unidirectional

extension FileStorageTests {
  /// swift-sharing's `FileStorageTests.LiveTests`, ported: `.fileSystem` storage on the real disk, in a directory of
  /// the test's own. Saves are debounced on a `TestClock`, so the test says when they happen; a change made to the
  /// file by someone else reaches the value through the file watcher, waited for with a bound (`nextChange`), never
  /// with a sleep.
  @Suite final class Live {
    let directory: URL
    let url: URL
    let clock = TestClock()

    init() throws {
      directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("unidirectional-file-storage-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      url = directory.appendingPathComponent("file.json")
    }

    deinit {
      try? FileManager.default.removeItem(at: directory)
    }

    @Test func aChangeIsWrittenToTheFileWhenTheWindowEnds() async throws {
      try await onDisk {
        @Shared(.fileStorage(url)) var users = [User]()
        #expect($users.loadError == nil)
        $users.withLock { $0.append(.blob) }
        #expect(savedUsers(in: url) == nil)
        await clock.advance(by: .seconds(1))
        #expect(savedUsers(in: url) == [.blob])
      }
    }

    @Test func aFileIsLoadedAndLeftAsItWas() async throws {
      try JSONEncoder().encode([User.blob]).write(to: url)
      try await onDisk {
        @Shared(.fileStorage(url)) var users = [User]()
        #expect(users == [.blob])
        await clock.advance(by: .seconds(1))
        #expect(savedUsers(in: url) == [.blob])
      }
    }

    @Test func aWriteByAnotherProcessIsLoaded() async throws {
      try JSONEncoder().encode([User.blob]).write(to: url)
      try await onDisk {
        @Shared(.fileStorage(url)) var users = [User]()
        #expect(users == [.blob])
        #expect(await $users.nextChange { try? JSONEncoder().encode([User.blobJr]).write(to: url) })
        #expect(users == [.blobJr])
      }
    }

    @Test func aDeletedFileBringsBackTheInitialValue() async throws {
      try JSONEncoder().encode([User.blob]).write(to: url)
      try await onDisk {
        @Shared(.fileStorage(url)) var users = [User]()
        #expect(users == [.blob])
        #expect(await $users.nextChange { try? FileManager.default.removeItem(at: url) })
        #expect(users == [])
      }
    }

    @Test func aFileMovedAwayAndBackIsFollowed() async throws {
      let other = directory.appendingPathComponent("another-file.json")
      try JSONEncoder().encode([User.blob]).write(to: url)
      try await onDisk {
        @Shared(.fileStorage(url)) var users = [User]()
        #expect(users == [.blob])
        #expect(await $users.nextChange { try? FileManager.default.moveItem(at: url, to: other) })
        #expect(users == [])
        #expect(await $users.nextChange { try? FileManager.default.moveItem(at: other, to: url) })
        #expect(users == [.blob])
      }
    }

    @Test func aFileMovedAwayThenWrittenAgainIsFollowed() async throws {
      let other = directory.appendingPathComponent("another-file.json")
      try JSONEncoder().encode([User.blob]).write(to: url)
      try await onDisk {
        @Shared(.fileStorage(url)) var users = [User]()
        #expect(await $users.nextChange { try? FileManager.default.moveItem(at: url, to: other) })
        #expect(users == [])
        #expect(await $users.nextChange { try? JSONEncoder().encode([User.blobEsq]).write(to: url) })
        #expect(users == [.blobEsq])
      }
    }

    @Test func aFileDeletedThenWrittenAgainIsFollowed() async throws {
      try JSONEncoder().encode([User.blob]).write(to: url)
      try await onDisk {
        @Shared(.fileStorage(url)) var users = [User]()
        #expect(await $users.nextChange { try? FileManager.default.removeItem(at: url) })
        #expect(users == [])
        #expect(await $users.nextChange { try? JSONEncoder().encode([User.blobJr]).write(to: url) })
        #expect(users == [.blobJr])
      }
    }

    @Test func deletingTheFileDropsAWriteStillWaitingForItsWindow() async throws {
      try await onDisk {
        @Shared(.fileStorage(url)) var users = [User.blob]
        $users.withLock { $0 = [.blobJr] }
        await clock.advance(by: .seconds(1))
        #expect(savedUsers(in: url) == [.blobJr])

        $users.withLock { $0 = [.blobSr] }
        #expect(await $users.nextChange { try? FileManager.default.removeItem(at: url) })
        #expect(users == [.blob], "the file is gone: the initial value is back")
        await clock.advance(by: .seconds(1))
        #expect(!FileManager.default.fileExists(atPath: url.path), "the waiting write was dropped")
      }
    }

    @Test func aWriteByAnotherProcessWinsOverAWriteStillWaitingForItsWindow() async throws {
      try await onDisk {
        @Shared(.fileStorage(url)) var users = [User]()
        $users.withLock { $0.append(.blob) }
        await clock.advance(by: .seconds(1))
        #expect(savedUsers(in: url) == [.blob])

        $users.withLock { $0.append(.blobJr) }
        #expect(await $users.nextChange { try? Data().write(to: url) })
        #expect(users == [], "an empty file holds no value: the initial value is back")
        #expect($users.loadError == nil)
        await clock.advance(by: .seconds(1))
        #expect(contents(of: url) == "", "their write stands")
      }
    }

    @Test func everyChangeIsSeenAtOnceAndTheLastOneIsWritten() async throws {
      try await onDisk {
        @Shared(.counts(in: directory)) var counts
        let iterations = 1_000
        let buckets = 10
        for iteration in 1...iterations {
          for bucket in 1...buckets {
            $counts.withLock { $0[bucket, default: 0] += 1 }
          }
          #expect(counts == Dictionary(uniqueKeysWithValues: (1...buckets).map { ($0, iteration) }))
        }
        await clock.advance(by: .seconds(1))
        let saved = try JSONDecoder().decode(
          [Int: Int].self, from: Data(contentsOf: directory.appendingPathComponent("counts.json")))
        #expect(saved == counts)
      }
    }

    @Test func changesFromManyTasksAreAllKept() async throws {
      try await onDisk {
        @Shared(.counts(in: directory)) var counts
        await withTaskGroup(of: Void.self) { group in
          for _ in 1...1_000 {
            group.addTask { [$counts] in
              for _ in 1...10 {
                $counts.withLock { $0[0, default: 0] += 1 }
                await Task.yield()
              }
            }
          }
        }
        #expect(counts[0] == 10_000)
        await clock.advance(by: .seconds(1))
        let saved = try JSONDecoder().decode(
          [Int: Int].self, from: Data(contentsOf: directory.appendingPathComponent("counts.json")))
        #expect(saved[0] == 10_000)
      }
    }

    @Test func anEmptyFileHoldsNoValue() async throws {
      try Data().write(to: url)
      try await onDisk {
        @Shared(.fileStorage(url)) var count = 0
        #expect(count == 0)
        #expect($count.loadError == nil)
      }
    }

    @Test func aCorruptFileIsReplacedByTheNextSave() async throws {
      try Data("corrupted".utf8).write(to: url)
      try await onDisk {
        @Shared(.fileStorage(url)) var count = 0
        #expect(count == 0)
        #expect($count.loadError != nil)
        $count.withLock { $0 = 1 }
        await clock.advance(by: .seconds(1))
        #expect(count == 1)
        #expect($count.loadError == nil)
        #expect(contents(of: url) == "1")
      }
    }

    @Test func twoSpellingsOfOnePathAreOneValue() async throws {
      let spelledWithADot = URL(fileURLWithPath: directory.path + "/./file.json")
      try await onDisk {
        @Shared(.fileStorage(url)) var count1 = 0
        @Shared(.fileStorage(spelledWithADot)) var count2 = 0
        $count1.withLock { $0 = 42 }
        #expect(count2 == 42)
        $count2.withLock { $0 = 1728 }
        #expect(count1 == 1728)
        await clock.advance(by: .seconds(1))
        #expect(contents(of: url) == "1728")
      }
    }

    @Test func atomicWritesByAnotherProcessAreLoaded() async throws {
      try await onDisk {
        @Shared(.fileStorage(url)) var count = 0
        #expect(await $count.nextChange { try? Data("42".utf8).write(to: url, options: .atomic) })
        #expect(count == 42)
        #expect(await $count.nextChange { try? Data("1728".utf8).write(to: url, options: .atomic) })
        #expect(count == 1728)
        $count.withLock { $0 = 999 }
        await clock.advance(by: .seconds(1))
        #expect(count == 999)
        #expect(contents(of: url) == "999")
      }
    }

    /// Runs `body` with `.fileStorage` on the real disk, saving on this test's clock.
    private func onDisk(_ body: () async throws -> Void) async throws {
      try await withDependencies {
        $0.defaultFileStorage = .fileSystem
        $0.clock = clock
      } operation: {
        try await body()
      }
    }

    /// The users the file holds: nil when there is no file, it is empty, or it does not decode.
    private func savedUsers(in url: URL) -> [User]? {
      guard let data = try? Data(contentsOf: url), !data.isEmpty else { return nil }
      return try? JSONDecoder().decode([User].self, from: data)
    }

    /// The text of the file at `url`, or nil if there is none.
    private func contents(of url: URL) -> String? {
      (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
    }
  }
}

extension SharedKey where Self == FileStorageKey<[Int: Int]>.Default {
  fileprivate static func counts(in directory: URL) -> Self {
    Self[.fileStorage(directory.appendingPathComponent("counts.json")), default: [:]]
  }
}

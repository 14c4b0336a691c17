import Foundation
import Testing
@testable import Unidirectional

/// Many tasks at once on one shared value, through the value itself, views of parts of it, an element of a shared
/// collection and a reader: every change is kept (the final counts are exact), no reader ever sees half a change
/// (the two halves of a pair are always changed together), and a persisted value saves the last change. Bounded:
/// a fixed number of tasks and changes, no waiting on time.
@Suite struct SharedConcurrencyTests {
  struct Pair: Equatable, Sendable {
    var left = 0
    var right = 0
  }

  struct Item: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
  }

  struct Counters: Equatable, Sendable {
    var pair = Pair()
    var items: IdentifiedArrayOf<Item> = [Item(id: 0), Item(id: 1)]
    var total = 0
  }

  static let writers = 16
  static let changesPerWriter = 500

  @Test func everyChangeThroughEveryPathIsKeptAndNoReadSeesHalfAChange() async throws {
    let counters = Shared(value: Counters())
    let pair = counters.pair
    let firstItem = try #require(Shared(counters.items[id: 0]))
    let total = SharedReader(counters.total)
    let tornReads = LockIsolated(0)

    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<Self.writers {
        group.addTask {
          for _ in 0..<Self.changesPerWriter {
            switch writer % 4 {
            case 0:
              counters.withLock {
                $0.pair.left += 1
                $0.pair.right += 1
                $0.total += 1
              }
            case 1:
              pair.withLock {
                $0.left += 1
                $0.right += 1
              }
              counters.total.withLock { $0 += 1 }
            case 2:
              firstItem.withLock { $0.count += 1 }
              counters.withLock { $0.total += 1 }
            default:
              // A change that reads views of the value it is changing (the lock is recursive).
              counters.withLock { value in
                value.items[id: 1]?.count += 1
                value.total = total.wrappedValue + 1
              }
            }
            await Task.yield()
          }
        }
      }
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<Self.changesPerWriter {
            let snapshot = pair.wrappedValue
            let whole = counters.wrappedValue.pair
            if snapshot.left != snapshot.right || whole.left != whole.right {
              tornReads.withLock { $0 += 1 }
            }
            await Task.yield()
          }
        }
      }
    }

    let perPath = Self.writers / 4 * Self.changesPerWriter
    #expect(tornReads.value == 0)
    #expect(counters.wrappedValue.pair == Pair(left: 2 * perPath, right: 2 * perPath))
    #expect(counters.wrappedValue.items[id: 0]?.count == perPath)
    #expect(counters.wrappedValue.items[id: 1]?.count == perPath)
    #expect(total.wrappedValue == Self.writers * Self.changesPerWriter)
    #expect(firstItem.wrappedValue.count == perPath)
  }

  /// A value without references (`Pair`) is read without the lock, checked against the value's version: threads
  /// that read while others change it never see half a change, a change that reads the value it is changing (on the
  /// same thread, through a view) sees it as changed so far, and every change is kept.
  @Test func aValueReadWithoutTheLockIsNeverSeenHalfChanged() {
    let pair = Shared(value: Pair())
    let left = pair.left
    let tornReads = LockIsolated(0)
    let readsInsideChanges = LockIsolated(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for _ in 0..<20_000 {
        if thread.isMultiple(of: 2) {
          pair.withLock { value in
            value.left += 1
            // Read inside the change, on the thread making it: the lock is recursive.
            if left.wrappedValue != value.left || pair.wrappedValue.left != value.left {
              readsInsideChanges.withLock { $0 += 1 }
            }
            value.right += 1
          }
        } else {
          let read = pair.wrappedValue
          if read.left != read.right { tornReads.withLock { $0 += 1 } }
        }
      }
    }
    #expect(tornReads.value == 0)
    #expect(readsInsideChanges.value == 0, "a read inside a change sees the value changed so far")
    #expect(pair.wrappedValue == Pair(left: 80_000, right: 80_000))
  }

  @Test func aPersistedValueChangedFromManyTasksSavesItsLastValue() async throws {
    let files = InMemoryFileSystem()
    let url = URL(fileURLWithPath: "/concurrency/counters.json")
    let counts = withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      Shared(wrappedValue: [Int: Int](), .fileStorage(url))
    }
    let sameFile = withDependencies {
      $0.defaultFileStorage = .inMemory(files)
    } operation: {
      Shared(wrappedValue: [Int: Int](), .fileStorage(url))
    }

    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<Self.writers {
        group.addTask {
          let shared = writer.isMultiple(of: 2) ? counts : sameFile
          for _ in 0..<Self.changesPerWriter {
            shared.withLock { $0[writer % 4, default: 0] += 1 }
            await Task.yield()
          }
        }
      }
    }

    let expected = Dictionary(uniqueKeysWithValues: (0..<4).map { ($0, Self.writers / 4 * Self.changesPerWriter) })
    #expect(counts.wrappedValue == expected)
    #expect(sameFile.wrappedValue == expected)
    let saved = try JSONDecoder().decode([Int: Int].self, from: try #require(files[url]))
    #expect(saved == expected)
  }

  /// Eight threads change one value as fast as they can. Each change is handed to the key after the value's lock is
  /// released, so without ordering a thread could hand over an older value after a newer one (measured before the
  /// fix: about 500 such inversions in 400,000 changes), and the storage could end with the older value.
  @Test func savesReachTheKeyInTheOrderOfTheChanges() {
    let key = OrderCheckingKey()
    let count = Shared(wrappedValue: 0, key)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { count.withLock { $0 += 1 } }
    }
    #expect(count.wrappedValue == 80_000)
    #expect(key.saves.value.inversions == 0, "no save reached the key after a later one")
    #expect(key.saves.value.last == 80_000, "the last save is the last change")
  }
}

/// A key that counts the saves that arrive after a save of a later value.
private final class OrderCheckingKey: SharedKey, Sendable {
  struct Saves {
    var last = 0
    var inversions = 0
  }

  let id = UUID()
  let saves = LockIsolated(Saves())

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    continuation.resumeReturningInitialValue()
  }

  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    SharedSubscription {}
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    saves.withLock { saves in
      if value < saves.last { saves.inversions += 1 }
      saves.last = value
    }
    continuation.resume()
  }
}

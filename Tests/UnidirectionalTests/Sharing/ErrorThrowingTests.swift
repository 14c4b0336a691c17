import Foundation
import Testing
@testable import Unidirectional

/// swift-sharing's `ErrorThrowingTests`, ported: a key that fails to load or save leaves the value as it was and
/// says why in `loadError`/`saveError`, until a later load or save succeeds.
@Suite struct ErrorThrowingTests {
  struct LoadError: Error {}
  struct SaveError: Error {}

  @Test func aSaveAskedForThrowsTheKeysError() async {
    struct Key: SharedKey {
      var id: some Hashable { 0 }
      func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
        continuation.resumeReturningInitialValue()
      }
      func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
        SharedSubscription {}
      }
      func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
        continuation.resume(throwing: SaveError())
      }
    }
    @Shared(Key()) var value = 0
    await #expect(throws: SaveError.self) {
      try await $value.save()
    }
    #expect($value.saveError is SaveError)
  }

  @Test func aFailedInitialLoadIsALoadError() {
    @SharedReader(FailingLoadKey()) var count = 0
    #expect($count.loadError is LoadError)
    #expect(count == 0)
  }

  @Test func aLoadAskedForThrowsTheKeysError() async {
    struct Key: Hashable, SharedReaderKey {
      let id = UUID()
      func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
        switch context {
        case .initialValue: continuation.resume(returning: 42)
        case .userInitiated: continuation.resume(throwing: LoadError())
        }
      }
      func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
        SharedSubscription {}
      }
    }
    @SharedReader(Key()) var value = 0
    #expect(value == 42)
    await #expect(throws: LoadError.self) {
      try await $value.load()
    }
    #expect(value == 42)
  }

  @Test func requiringAValueThrowsTheKeysError() async {
    await #expect(throws: LoadError.self) {
      try await SharedReader(require: FailingLoadKey())
    }
  }

  @Test func aSubscriptionErrorIsALoadErrorUntilTheNextValue() {
    let key = CapturingKey()
    @SharedReader(key) var count = 0
    key.subscriber.value?.yield(throwing: LoadError())
    #expect($count.loadError != nil)

    key.subscriber.value?.yield(1)
    #expect(count == 1)
    #expect($count.loadError == nil)
  }

  @Test func aFailedSaveIsASaveErrorUntilTheNextSaveSucceeds() {
    struct Key: SharedKey {
      let id = UUID()
      func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
        continuation.resumeReturningInitialValue()
      }
      func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
        SharedSubscription {}
      }
      func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
        continuation.resume(with: value < 0 ? .failure(SaveError()) : .success(()))
      }
    }
    @Shared(Key()) var count = 0
    $count.withLock { $0 -= 1 }
    #expect(count == -1, "the value changes even if it could not be saved")
    #expect($count.saveError != nil)

    $count.withLock { $0 += 1 }
    #expect($count.saveError == nil)
  }

  @Test func aSuccessfulSaveClearsBothErrorsAndANewValueClearsOnlyTheLoadError() {
    let key = CapturingKey()
    @Shared(key) var count = 0
    key.subscriber.value?.yield(throwing: LoadError())
    #expect($count.loadError != nil)

    $count.withLock { $0 -= 1 }
    #expect($count.loadError != nil)
    #expect($count.saveError != nil)

    key.subscriber.value?.yieldReturningInitialValue()
    #expect(count == 0)
    #expect($count.loadError == nil)
    #expect($count.saveError != nil)

    key.subscriber.value?.yield(throwing: LoadError())
    #expect($count.loadError != nil)
    #expect($count.saveError != nil)

    $count.withLock { $0 += 1 }
    #expect($count.loadError == nil, "what was saved is what the storage holds now")
    #expect($count.saveError == nil)
  }

  @Test func aLoadErrorStaysWhileTheNextLoadRuns() async throws {
    let key = PendingLoadKey()
    @SharedReader(key) var count = 0
    var loads = key.loads.makeAsyncIterator()
    _ = await loads.next()
    #expect($count.isLoading)
    #expect($count.loadError == nil)

    key.continuation.value?.resume(throwing: LoadError())
    #expect(!$count.isLoading)
    #expect($count.loadError != nil)

    let task = Task { [$count] in try await $count.load() }
    _ = await loads.next()
    #expect($count.isLoading)
    #expect($count.loadError != nil)

    key.continuation.value?.resume(returning: 42)
    try await task.value
    #expect(!$count.isLoading)
    #expect($count.loadError == nil)
    #expect(count == 42)
  }

  @Test func aSaveErrorStaysUntilASaveSucceeds() {
    final class Key: SharedKey, Sendable {
      let id = UUID()
      let continuation = LockIsolated<SaveContinuation?>(nil)
      func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
        continuation.resumeReturningInitialValue()
      }
      func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
        SharedSubscription {}
      }
      func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
        self.continuation.setValue(continuation)
      }
    }
    let key = Key()
    @Shared(key) var count = 0
    #expect($count.saveError == nil)

    $count.withLock { $0 += 1 }
    key.continuation.value?.resume(throwing: SaveError())
    #expect($count.saveError != nil)

    $count.withLock { $0 += 1 }
    #expect($count.saveError != nil, "a save under way does not clear the last one's error")

    key.continuation.value?.resume()
    #expect($count.saveError == nil)
  }
}

/// A key whose loads fail.
private struct FailingLoadKey: SharedReaderKey {
  let id = UUID()
  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    continuation.resume(throwing: ErrorThrowingTests.LoadError())
  }
  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    SharedSubscription {}
  }
}

/// A key that keeps its subscriber, so a test can yield what the storage would.
private final class CapturingKey: SharedKey, Sendable {
  let id = UUID()
  let subscriber = LockIsolated<SharedSubscriber<Int>?>(nil)

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    continuation.resumeReturningInitialValue()
  }

  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    self.subscriber.setValue(subscriber)
    return SharedSubscription {}
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    continuation.resume(with: value < 0 ? .failure(ErrorThrowingTests.SaveError()) : .success(()))
  }
}

/// A key whose loads wait for the test: each load is announced on `loads` and finished through `continuation`.
private final class PendingLoadKey: SharedReaderKey, Sendable {
  let id = UUID()
  let continuation = LockIsolated<LoadContinuation<Int>?>(nil)
  private let announcer = AsyncStream<Void>.makeStream()
  var loads: AsyncStream<Void> { announcer.stream }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    self.continuation.setValue(continuation)
    announcer.continuation.yield()
  }

  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    SharedSubscription {}
  }
}

import Foundation
import Testing
@testable import Unidirectional

/// swift-sharing's `IsLoadingTests`, ported with a queue of pending work in place of a Combine test scheduler:
/// `isLoading` is true from the moment a key starts loading until it hands back a value (or says it stopped).
@Suite struct IsLoadingTests {
  @Test func aValueIsLoadingUntilTheKeyHandsItBack() {
    let work = PendingWork()
    @SharedReader(DelayedKey(work: work)) var value = 0
    #expect($value.isLoading == true)
    #expect(value == 0)
    work.run()
    #expect($value.isLoading == false)
    #expect(value == 42)
  }

  @Test func aNewReaderAssignedToThePropertyLoadsAgain() {
    let work = PendingWork()
    @SharedReader(DelayedKey(work: work)) var value = 0
    work.run()
    #expect(value == 42)
    #expect($value.isLoading == false)

    $value = SharedReader(wrappedValue: 0, DelayedKey(work: work))
    #expect($value.isLoading == true)
    #expect(value == 0)
    work.run()
    #expect($value.isLoading == false)
    #expect(value == 42)
  }

  @Test func requiringAValueLeavesTheReaderAssignedSoFarAlone() async throws {
    let work = PendingWork()
    @SharedReader(DelayedKey(work: work)) var value = 0
    work.run()
    #expect(value == 42)

    let required = Task { try await SharedReader(require: DelayedKey(work: work)) }
    await work.waitForPendingWork()
    #expect($value.isLoading == false)
    #expect(value == 42)
    work.run()
    $value = try await required.value
    #expect($value.isLoading == false)
    #expect(value == 42)
  }

  @Test func aSubscriptionMaySayItIsLoadingAndThenYieldAValue() {
    let work = PendingWork()
    @SharedReader(LoadingSubscriptionKey(work: work) { $0.yield(42) }) var value = 0
    #expect($value.isLoading == true)
    work.run()
    #expect($value.isLoading == false)
    #expect(value == 42)
  }

  @Test func aSubscriptionMaySayItStoppedLoading() {
    let work = PendingWork()
    @SharedReader(LoadingSubscriptionKey(work: work) { $0.yieldLoading(false) }) var value = 0
    #expect($value.isLoading == true)
    work.run()
    #expect($value.isLoading == false)
    #expect(value == 0)
  }
}

/// A key with nothing stored whose subscription says it is loading, then, once the pending work runs, does `then`.
private struct LoadingSubscriptionKey: SharedReaderKey {
  let id = UUID()
  let work: PendingWork
  let then: @Sendable (SharedSubscriber<Int>) -> Void

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    continuation.resumeReturningInitialValue()
  }

  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    subscriber.yieldLoading()
    work.schedule { then(subscriber) }
    return SharedSubscription {}
  }
}

/// A key that answers 42, once its pending work runs.
private struct DelayedKey: SharedReaderKey {
  let id = UUID()
  let work: PendingWork

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    work.schedule { continuation.resume(returning: 42) }
  }

  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    SharedSubscription {}
  }
}

/// Work that waits until the test runs it: a test scheduler without time.
final class PendingWork: Sendable {
  private let queue = LockIsolated<[@Sendable () -> Void]>([])
  private let announcer = AsyncStream<Void>.makeStream()

  func schedule(_ work: @escaping @Sendable () -> Void) {
    queue.withLock { $0.append(work) }
    announcer.continuation.yield()
  }

  /// Runs the work scheduled so far, in order.
  func run() {
    let work = queue.withLock { queue in
      defer { queue.removeAll() }
      return queue
    }
    for item in work { item() }
  }

  /// Waits until some work is scheduled from another task.
  func waitForPendingWork() async {
    for await _ in announcer.stream where !queue.value.isEmpty { return }
  }
}

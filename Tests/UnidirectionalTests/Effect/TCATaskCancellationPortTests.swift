import Synchronization
import Testing
import Unidirectional

/// TCA's `TaskCancellationTests`, ported: a `Task.cancel(id:)` that comes right after the operation started is never
/// lost, and a cancelled unit leaves nothing registered.
@Suite struct TCATaskCancellationPortTests {
  @Test func testCancellation() async throws {
    // Lost before: withTaskCancellation started the task and registered it afterwards, so a cancel in between
    // cancelled nothing and the test hung (7 of 30 runs on a quiet machine, 2 of 1,000 under load).
    for _ in 0..<stressCount(default: 300) {
      let id = UniqueID()
      let (started, signal) = AsyncStream<Void>.makeStream()
      let task = Task {
        try await withTaskCancellation(id: id) {
          signal.yield()
          signal.finish()
          try await Task.never()
        }
      }
      for await _ in started { break }
      await Task.cancel(id: id)
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(!isTaskCancellationRegistered(id: id))
    }
  }

  @Test func cancelInFlightCancelsTheUnitAlreadyRunning() async throws {
    let id = UniqueID()
    let (started, signal) = AsyncStream<Void>.makeStream()
    let first = Task {
      try await withTaskCancellation(id: id) {
        signal.yield()
        try await Task.never()
      }
    }
    for await _ in started { break }
    let second = try await withTaskCancellation(id: id, cancelInFlight: true) { 42 }
    #expect(second == 42)
    await #expect(throws: CancellationError.self) { try await first.value }
    #expect(!isTaskCancellationRegistered(id: id))
  }
}

/// A cancellation id no other test uses (the registry outside effects is process-wide).
private struct UniqueID: Hashable, Sendable {
  private static let counter = Atomic<Int>(0)
  let value = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
}

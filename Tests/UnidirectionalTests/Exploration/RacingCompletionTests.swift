import Testing
import Unidirectional

/// When the explorer completes a racing call, the answer is decided then: the operation runs, and so does what the
/// caller does with the answer up to its next suspension, before any job that was ready.
struct RacingCompletionTests {
  /// Leaves racing calls waiting until told to complete them, and then completes one wherever it is an option.
  final class CompletingChooser: ScheduleChooser {
    let completes = LockIsolated(false)

    func choose(_ point: ChoicePoint) -> Int {
      guard completes.value else { return 0 }
      return point.options.firstIndex {
        if case .completion = $0 { return true }
        return false
      } ?? 0
    }
  }

  @Test func theAnswerRunsWhenTheCallIsCompletedBeforeTheJobsThatWereReady() async throws {
    let chooser = CompletingChooser()
    let runtime = TestRuntime(chooser: chooser)
    let log = LockIsolated<[String]>([])
    func start(_ body: @escaping @Sendable () async throws -> Void) -> Task<Void, any Error> {
      Task(executorPreference: runtime) {
        try await TestRuntime.$current.withValue(runtime) { try await body() }
      }
    }
    let caller = start {
      let answer = try await withRacing {
        log.withLock { $0.append("answer") }
        return 1
      }
      log.withLock { $0.append("the caller got \(answer)") }
    }
    _ = runtime.runUntilIdle(defersCompletions: true)
    #expect(log.value.isEmpty, "the call waits")
    let others = [start { log.withLock { $0.append("b") } }, start { log.withLock { $0.append("c") } }]
    chooser.completes.setValue(true)
    _ = runtime.runUntilIdle(defersCompletions: true)
    // Before: the completion only resumed the caller, whose job then waited behind b's and c's: b, c, answer.
    #expect(log.value == ["answer", "the caller got 1", "b", "c"])
    try await caller.value
    for task in others { try await task.value }
  }
}

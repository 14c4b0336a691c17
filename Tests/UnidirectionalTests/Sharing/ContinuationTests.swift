import Testing
@testable import Unidirectional

/// swift-sharing's `ContinuationTests`, ported: a key that never resumes its continuation is a runtime issue, and
/// nothing waits forever on it (the load or save finishes as if nothing was stored).
@Suite struct ContinuationTests {
  @Test func aLoadContinuationDroppedWithoutResumingIsReportedAndTreatedAsNoValue() async throws {
    let issues = LockIsolated<[String]>([])
    try await withDependencies {
      $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
    } operation: {
      @SharedReader(DontResumeLoadContinuationKey()) var value = 0
      #expect($value.isLoading == false)
      #expect(value == 0)
      try await $value.load()
      #expect($value.isLoading == false)
      #expect(value == 0)
    }
    let message = "DontResumeLoadContinuationKey() dropped its continuation without resuming it: treated as no value."
    #expect(issues.value == [message, message])
  }

  @Test func aSaveContinuationDroppedWithoutResumingIsReportedAndTheSaveFinishes() async throws {
    let issues = LockIsolated<[String]>([])
    try await withDependencies {
      $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
    } operation: {
      @Shared(DontResumeSaveContinuationKey()) var value = 0
      #expect(value == 42)
      try await $value.save()
      #expect($value.saveError == nil)
    }
    #expect(
      issues.value == [
        "DontResumeSaveContinuationKey() dropped its continuation without resuming it: treated as no value."
      ])
  }

  @Test func aContinuationResumedTwiceIsReportedAndTheSecondResultIgnored() {
    let issues = LockIsolated<[String]>([])
    let results = LockIsolated<[Int?]>([])
    withDependencies {
      $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
    } operation: {
      let continuation = LoadContinuation<Int>("A twice-resuming key") { result in
        results.withLock { $0.append(try? result.get()) }
      }
      continuation.resume(returning: 1)
      continuation.resume(returning: 2)
    }
    #expect(results.value == [1])
    #expect(issues.value == ["A twice-resuming key resumed its continuation more than once."])
  }
}

private struct DontResumeLoadContinuationKey: SharedReaderKey {
  var id: some Hashable { 0 }
  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {}
  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    SharedSubscription {}
  }
}

private struct DontResumeSaveContinuationKey: SharedKey {
  var id: some Hashable { 0 }
  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    continuation.resume(returning: 42)
  }
  func subscribe(context: LoadContext<Int>, subscriber: SharedSubscriber<Int>) -> SharedSubscription {
    SharedSubscription {}
  }
  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {}
}

import Unidirectional
import UnidirectionalTesting
import XCTest

@testable import HTTPClient
import FeatureTestSupport

/// ``RetryPolicy``: which failures are retried, how long it waits (on a `TestClock` moved by the test), and what the
/// caller gets when it gives up.
final class RetryPolicyTests: XCTestCase {
  private let slowDown = HTTPError.storageRejected(status: 503, code: "SlowDown", message: "Reduce your rate")
  private let accessDenied = HTTPError.storageRejected(status: 403, code: "AccessDenied", message: nil)

  /// Runs `policy` on `clock` as a task of `runtime` (so `runUntilIdle` knows when it waits), with jitter 1 (the
  /// whole backoff cap) and an operation that fails with `failures[attempt - 1]` or returns the attempt number.
  private func start(
    _ policy: RetryPolicy,
    clock: TestClock,
    runtime: TestRuntime,
    failures: [HTTPError],
    attempts: Recorder<Int>
  ) -> Task<Int, any Error> {
    Task(executorPreference: runtime) {
      try await TestRuntime.$current.withValue(runtime) {
        try await policy.run(clock: clock, jitter: { 1 }) { attempt in
          attempts.append(attempt)
          if attempt <= failures.count { throw failures[attempt - 1] }
          return attempt
        }
      }
    }
  }

  func testTheDefaultsAreThreeAttemptsBackingOffFromOneSecondToTwentyWithinTwoMinutes() {
    XCTAssertEqual(RetryPolicy.standard.maxAttempts, 3)
    XCTAssertEqual(RetryPolicy.standard.initialBackoff, .seconds(1))
    XCTAssertEqual(RetryPolicy.standard.maxBackoff, .seconds(20))
    XCTAssertEqual(RetryPolicy.standard.maxTotalDuration, .seconds(120))
    XCTAssertEqual(RetryPolicy.never.maxAttempts, 1)
    XCTAssertEqual(
      "\(RetryPolicy.standard)", "RetryPolicy(3 attempts, backoff 1.0 s…20.0 s with full jitter, within 120.0 s)")
    XCTAssertEqual(RetryPolicy(maxAttempts: 0).maxAttempts, 1, "at least one attempt")
  }

  func testTheBackoffDoublesUpToItsCapAndTheJitterScalesIt() {
    let policy = RetryPolicy(initialBackoff: .milliseconds(500), maxBackoff: .seconds(3))
    XCTAssertEqual(policy.backoff(afterAttempt: 1, jitter: 1), .milliseconds(500))
    XCTAssertEqual(policy.backoff(afterAttempt: 2, jitter: 1), .seconds(1))
    XCTAssertEqual(policy.backoff(afterAttempt: 3, jitter: 1), .seconds(2))
    XCTAssertEqual(policy.backoff(afterAttempt: 4, jitter: 1), .seconds(3), "capped at maxBackoff")
    XCTAssertEqual(policy.backoff(afterAttempt: 80, jitter: 1), .seconds(3), "no overflow however many attempts")
    XCTAssertEqual(policy.backoff(afterAttempt: 3, jitter: 0.25), .milliseconds(500), "full jitter: 0…cap")
    XCTAssertEqual(policy.backoff(afterAttempt: 3, jitter: 0), .zero)
    XCTAssertEqual(policy.backoff(afterAttempt: 3, jitter: 7), .seconds(2), "jitter is clamped to 0…1")
  }

  func testARequestThatSucceedsAtOnceNeverTouchesTheClock() async throws {
    // UnimplementedClock fails the test if it is read or slept on.
    let value = try await RetryPolicy.standard.run(clock: UnimplementedClock(name: "retry")) { attempt in attempt }
    XCTAssertEqual(value, 1)
  }

  func testASlowDownIsRetriedAfterTheBackoffOnTheInjectedClockAndThenSucceeds() async throws {
    let clock = TestClock()
    let runtime = TestRuntime()
    let attempts = Recorder<Int>()
    let task = start(
      .standard, clock: clock, runtime: runtime, failures: [slowDown, .connectionLost(host: "s3")],
      attempts: attempts)
    runtime.runUntilIdle()
    XCTAssertEqual(attempts.values, [1])
    XCTAssertEqual(clock.sleeperCount, 1, "backing off before attempt 2")

    await clock.advance(by: .milliseconds(999))
    XCTAssertEqual(attempts.values, [1], "the first backoff is 1 s")
    await clock.advance(by: .milliseconds(1))
    XCTAssertEqual(attempts.values, [1, 2])

    await clock.advance(by: .milliseconds(1_999))
    XCTAssertEqual(attempts.values, [1, 2], "the second backoff is 2 s")
    await clock.advance(by: .milliseconds(1))
    XCTAssertEqual(attempts.values, [1, 2, 3])
    let value = try await task.value
    XCTAssertEqual(value, 3)
    XCTAssertEqual(clock.sleeperCount, 0)
  }

  func testAfterTheLastAttemptTheErrorSaysHowManyWereMade() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let attempts = Recorder<Int>()
    let task = start(
      .standard, clock: clock, runtime: runtime, failures: [slowDown, .timedOut(host: "s3"), slowDown],
      attempts: attempts)
    runtime.runUntilIdle()
    await clock.run()

    let expected = HTTPError.attemptsFailed(count: 3, last: slowDown)
    await XCTAssertThrowsErrorAsync(try await task.value) { error in
      XCTAssertEqual(error as? HTTPError, expected)
    }
    XCTAssertEqual(attempts.values, [1, 2, 3])
    XCTAssertEqual(clock.now.offset, .seconds(3), "1 s + 2 s of backoff, nothing after the last attempt")
    XCTAssertEqual(
      expected.description,
      "Gave up after 3 attempts. The storage server refused the upload (HTTP 503): SlowDown: Reduce your rate")
  }

  func testA4xxIsNeverRetriedAndComesBackAsItIs() async {
    let attempts = Recorder<Int>()
    do {
      _ = try await RetryPolicy.standard.run(clock: UnimplementedClock(name: "retry")) { attempt -> Int in
        attempts.append(attempt)
        throw self.accessDenied
      }
      XCTFail("expected the 403")
    } catch {
      XCTAssertEqual(error as? HTTPError, accessDenied)
    }
    XCTAssertEqual(attempts.values, [1])
  }

  func testA4xxAfterARetryEndsTheRetriesAndCountsTheAttempts() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let attempts = Recorder<Int>()
    let task = start(
      RetryPolicy(maxAttempts: 5), clock: clock, runtime: runtime, failures: [slowDown, accessDenied],
      attempts: attempts)
    runtime.runUntilIdle()
    await clock.run()
    await XCTAssertThrowsErrorAsync(try await task.value) { error in
      XCTAssertEqual(error as? HTTPError, .attemptsFailed(count: 2, last: self.accessDenied))
    }
    XCTAssertEqual(attempts.values, [1, 2])
  }

  func testWhatIsRetryable() {
    XCTAssertTrue(HTTPError.storageRejected(status: 500, code: "InternalError", message: nil).isRetryable)
    XCTAssertTrue(slowDown.isRetryable)
    XCTAssertTrue(HTTPError.httpStatus(502, message: "bad gateway").isRetryable)
    XCTAssertTrue(HTTPError.connectionLost(host: "s3").isRetryable, "a reset or dropped connection")
    XCTAssertTrue(HTTPError.timedOut(host: "s3").isRetryable)
    XCTAssertFalse(accessDenied.isRetryable)
    XCTAssertFalse(HTTPError.httpStatus(429, message: "").isRetryable, "never a 4xx")
    XCTAssertFalse(HTTPError.httpStatus(401, message: "").isRetryable)
    XCTAssertFalse(HTTPError.cannotConnect(host: "s3").isRetryable, "nobody listens: say so at once")
    XCTAssertFalse(HTTPError.cancelled.isRetryable)
    XCTAssertFalse(HTTPError.incompleteUpload(host: "s3", detail: "").isRetryable)
    XCTAssertFalse(
      HTTPError.redirectRefused(status: 307, from: "a", to: "b", reason: "another origin").isRetryable)
  }

  func testNoAttemptStartsAfterTheTotalDuration() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let attempts = Recorder<Int>()
    // Backoffs 1 s then 2 s: the third attempt would start 3 s after the first failure, past the 2.5 s budget.
    let policy = RetryPolicy(maxAttempts: 10, maxTotalDuration: .milliseconds(2_500))
    let task = start(
      policy, clock: clock, runtime: runtime, failures: Array(repeating: slowDown, count: 10), attempts: attempts)
    runtime.runUntilIdle()
    await clock.run()
    await XCTAssertThrowsErrorAsync(try await task.value) { error in
      XCTAssertEqual(error as? HTTPError, .attemptsFailed(count: 2, last: self.slowDown))
    }
    XCTAssertEqual(attempts.values, [1, 2])
    XCTAssertEqual(clock.now.offset, .seconds(1), "it gave up without sleeping the second backoff")
  }

  func testCancellingDuringTheBackoffStopsAtOnceWithoutAnotherAttempt() async {
    let clock = TestClock()
    let runtime = TestRuntime()
    let attempts = Recorder<Int>()
    let task = start(.standard, clock: clock, runtime: runtime, failures: [slowDown], attempts: attempts)
    runtime.runUntilIdle()
    XCTAssertEqual(clock.sleeperCount, 1)
    task.cancel()
    runtime.runUntilIdle()
    await XCTAssertThrowsErrorAsync(try await task.value) { error in
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    XCTAssertEqual(clock.sleeperCount, 0)
    await clock.advance(by: .seconds(60))
    XCTAssertEqual(attempts.values, [1])
  }

  func testAZeroBackoffRetriesAtOnceWithoutWaitingForTheClock() async throws {
    let attempts = Recorder<Int>()
    // Jitter 0 draws a zero wait: the next attempt starts at once, even on a clock nobody moves.
    let value = try await RetryPolicy.standard.run(clock: TestClock(), jitter: { 0 }) { attempt -> Int in
      attempts.append(attempt)
      if attempt < 3 { throw self.slowDown }
      return attempt
    }
    XCTAssertEqual(value, 3)
    XCTAssertEqual(attempts.values, [1, 2, 3])
  }

  func testCancellationInsideAnAttemptIsNotRetried() async {
    let attempts = Recorder<Int>()
    do {
      _ = try await RetryPolicy.standard.run(clock: UnimplementedClock(name: "retry")) { attempt -> Int in
        attempts.append(attempt)
        throw CancellationError()
      }
      XCTFail("expected cancellation")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    XCTAssertEqual(attempts.values, [1])
  }
}

/// `XCTAssertThrowsError` for an async expression.
private func XCTAssertThrowsErrorAsync<T>(
  _ expression: @autoclosure () async throws -> T,
  file: StaticString = #filePath,
  line: UInt = #line,
  _ handler: (any Error) -> Void
) async {
  do {
    _ = try await expression()
    XCTFail("expected an error", file: file, line: line)
  } catch {
    handler(error)
  }
}

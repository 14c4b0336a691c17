/// How often, and how patiently, a live upload client repeats an **idempotent** request (a `PUT` of a whole file)
/// that failed in a way worth repeating: exponential backoff with full jitter, slept on the injected clock, bounded
/// in attempts and in time.
///
/// Retried (``HTTPError/isRetryable``): any 5xx answer (S3's `503 SlowDown` included), a connection lost or
/// reset mid-request, a timeout. Never retried: 4xx answers (the request itself is wrong: a signature, a token, a
/// size), a server that refuses connections, cancellation, and requests that are not idempotent (`POST`).
///
/// Defaults (``standard``), as AWS's SDKs do for S3: 3 attempts in all; before attempt *n + 1* a random wait in
/// `0…min(1 s × 2ⁿ⁻¹, 20 s)`; no attempt starts more than 120 s after the first failure.
///
/// ```swift
/// let policy = RetryPolicy(maxAttempts: 5, initialBackoff: .milliseconds(200))
/// let data = try await policy.run(clock: clock) { attempt in try await put(file) }
/// // after the 5th failure: HTTPError.attemptsFailed(count: 5, last: .storageRejected(status: 503, …))
/// ```
public struct RetryPolicy: Hashable, Sendable, CustomStringConvertible {
  /// Attempts in all, the first one included (at least 1; 1 means no retry).
  public var maxAttempts: Int
  /// No attempt starts later than this after the first failure (measured on the clock the policy runs on).
  public var maxTotalDuration: Duration
  /// The backoff cap before the second attempt; it doubles for each further attempt.
  public var initialBackoff: Duration
  /// The largest backoff cap.
  public var maxBackoff: Duration

  /// A policy of `maxAttempts` attempts within `maxTotalDuration`, backing off from `initialBackoff` up to
  /// `maxBackoff`. Negative durations count as zero.
  public init(
    maxAttempts: Int = 3,
    maxTotalDuration: Duration = .seconds(120),
    initialBackoff: Duration = .seconds(1),
    maxBackoff: Duration = .seconds(20)
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.maxTotalDuration = max(.zero, maxTotalDuration)
    self.initialBackoff = max(.zero, initialBackoff)
    self.maxBackoff = max(.zero, maxBackoff)
  }

  /// The defaults: 3 attempts, 1 s initial backoff, 20 s largest backoff, 120 s in all.
  public static let standard = RetryPolicy()
  /// One attempt, no retry.
  public static let never = RetryPolicy(maxAttempts: 1)

  /// `RetryPolicy(3 attempts, backoff 1.0 s…20.0 s with full jitter, within 120.0 s)`.
  public var description: String {
    "RetryPolicy(\(maxAttempts) attempt\(maxAttempts == 1 ? "" : "s"), backoff \(Self.seconds(initialBackoff))…"
      + "\(Self.seconds(maxBackoff)) with full jitter, within \(Self.seconds(maxTotalDuration)))"
  }

  /// The wait after failed attempt `attempt` (1-based): `jitter × min(initialBackoff × 2^(attempt − 1), maxBackoff)`.
  ///
  /// - Parameters:
  ///   - attempt: The number of the attempt that failed, from 1.
  ///   - jitter: A number in `0…1` (clamped), random in live use ("full jitter").
  public func backoff(afterAttempt attempt: Int, jitter: Double) -> Duration {
    let exponent = min(max(attempt - 1, 0), 62)
    let cap = min(Self.scaled(initialBackoff, by: Double(UInt64(1) << UInt64(exponent))), maxBackoff)
    return Self.scaled(cap, by: min(max(jitter, 0), 1))
  }

  /// Runs `operation` until it succeeds, fails in a way that is not retryable, or the policy's attempts or time
  /// run out, sleeping the backoff on `clock` between attempts.
  ///
  /// The clock is read only after a failure, so a request that succeeds at once never touches it.
  ///
  /// - Parameters:
  ///   - clock: The clock the backoffs sleep on (the injected `\.clock` in features, a test clock in tests).
  ///   - jitter: Draws the jitter for each backoff (`0…1`); random by default, fixed in tests.
  ///   - isRetryable: Which failures may be retried; ``HTTPError/isRetryable`` by default.
  ///   - operation: One attempt; gets the attempt's number, from 1.
  /// - Throws: The first failure as an ``HTTPError`` when only one attempt was made; after more,
  ///   ``HTTPError/attemptsFailed(count:last:)`` with the number of attempts and the last failure;
  ///   `CancellationError` when the calling task is cancelled (also during a backoff).
  public func run<Value: Sendable, C: Clock<Duration>>(
    clock: C,
    jitter: @Sendable () -> Double = { Double.random(in: 0...1) },
    isRetryable: (HTTPError) -> Bool = { $0.isRetryable },
    _ operation: (_ attempt: Int) async throws -> Value
  ) async throws -> Value {
    var deadline: C.Instant?
    var attempt = 1
    while true {
      let failure: HTTPError
      do {
        return try await operation(attempt)
      } catch {
        if error is CancellationError || Task.isCancelled { throw CancellationError() }
        failure = HTTPError(error)
        if failure == .cancelled { throw CancellationError() }
      }
      func givingUp() -> HTTPError {
        attempt == 1 ? failure : .attemptsFailed(count: attempt, last: failure)
      }
      guard attempt < maxAttempts, isRetryable(failure) else { throw givingUp() }
      let now = clock.now
      let end = deadline ?? now.advanced(by: maxTotalDuration)
      deadline = end
      let delay = backoff(afterAttempt: attempt, jitter: jitter())
      let wakeUp = now.advanced(by: delay)
      guard wakeUp <= end else { throw givingUp() }
      if delay > .zero {
        try await clock.sleep(until: wakeUp, tolerance: nil)
      } else {
        try Task.checkCancellation()  // no wait: a zero-length sleep on a TestClock would wait for the next advance
      }
      attempt += 1
    }
  }

  private static func scaled(_ duration: Duration, by factor: Double) -> Duration {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    let product = seconds * factor
    guard product.isFinite, product < 1e12 else { return .seconds(Int64(1e12)) }
    return .nanoseconds(Int64((product * 1e9).rounded()))
  }

  private static func seconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return "\((value * 1000).rounded() / 1000) s"
  }
}

extension HTTPError {
  /// Whether repeating the same idempotent request may succeed: a 5xx answer from the API or the storage server
  /// (S3's `SlowDown` included), a lost or reset connection, a timeout. 4xx answers, refused connections, bad
  /// input and cancellation are final.
  public var isRetryable: Bool {
    switch self {
    case let .httpStatus(status, _): return (500..<600).contains(status)
    case let .storageRejected(status, _, _): return (500..<600).contains(status)
    case .connectionLost, .timedOut: return true
    case let .attemptsFailed(_, last): return last.isRetryable
    default: return false
    }
  }
}

/// Runs `operation` — a test double's answer — when an interleaving explorer completes this call: calls made this
/// way complete in an order the explorer chooses, so a search whose answers to "a" and "ab" may arrive either way,
/// or upload parts that may finish in any order, are explored both ways. Outside an explored run it runs
/// `operation` at once, as a plain test double does.
///
/// The answer is decided when the explorer completes the call: `operation` runs then, and so does what the caller
/// does with its answer up to its next suspension, before any other work. An `operation` that waits for something
/// else (a stream the test feeds, a clock, the main actor) cannot be moved by the explorer, and the test store
/// reports it; events a service pushes (a socket's frames, purchase updates, progress) are a ``RacingStream``.
///
/// As a real request does, the call throws `CancellationError` when its task is cancelled before it answers (see
/// ``withRacing(ifCancelled:fileID:line:_:)`` for a double of a call that does not). A waiting call counts as
/// waiting on the test, so a `TestStore` never waits a timeout for it: a `receive` or `finish` that needs it
/// completes it.
///
/// ```swift
/// $0.searchClient.search = { query in
///   try await withRacing { try await results(for: query) }
/// }
/// ```
nonisolated(nonsending) public func withRacing<T>(
  fileID: StaticString = #fileID,
  line: UInt = #line,
  _ operation: nonisolated(nonsending) () async throws -> T
) async throws -> T {
  try Task.checkCancellation()
  guard let runtime = TestRuntime.current, runtime.isExplored else { return try await operation() }
  let call = runtime.makeRacingCall()
  guard await runtime.waitForTurn(of: call, at: RacingSite(fileID: fileID, line: line)) else {
    throw CancellationError()
  }
  defer { runtime.racingCallAnswered(call) }
  return try await operation()
}

/// ``withRacing(fileID:line:_:)`` for a double of a call that does not throw `CancellationError` when cancelled: a
/// dependency whose type does not throw, or a callback API bridged without a cancellation handler. It throws only
/// what `operation` throws.
///
/// ```swift
/// Search(search: { query in await withRacing(ifCancelled: .answersAtOnce) { ["\(query)!"] } })
/// $0.sdk.save = { text in try await withRacing(ifCancelled: .isIgnored) { try store(text) } }
/// ```
nonisolated(nonsending) public func withRacing<T>(
  ifCancelled cancellation: RacingCancellation,
  fileID: StaticString = #fileID,
  line: UInt = #line,
  _ operation: nonisolated(nonsending) () async throws -> T
) async rethrows -> T {
  guard let runtime = TestRuntime.current, runtime.isExplored else { return try await operation() }
  let site = RacingSite(fileID: fileID, line: line)
  let call = runtime.makeRacingCall()
  let ignoresCancellation = cancellation == .isIgnored
  let completed =
    (ignoresCancellation || !Task.isCancelled)
    ? await runtime.waitForTurn(of: call, at: site, ignoringCancellation: ignoresCancellation) : false
  // A call that answers at once on cancellation runs its operation then, not at a choice of the explorer's.
  guard completed else { return try await operation() }
  defer { runtime.racingCallAnswered(call) }
  return try await operation()
}

/// What a racing call that does not throw `CancellationError` does when its task is cancelled while it waits.
///
/// ```swift
/// await withRacing(ifCancelled: .answersAtOnce) { ["a!"] }
/// ```
public enum RacingCancellation: Sendable {
  /// It stops waiting and answers at once (`operation` runs then): a call that returns early when cancelled.
  case answersAtOnce
  /// It goes on waiting until the explorer completes it, as if not cancelled: a call that ignores cancellation, as
  /// a callback API bridged with a continuation and no cancellation handler does.
  case isIgnored
}

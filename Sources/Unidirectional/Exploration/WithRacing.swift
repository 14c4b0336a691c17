/// Runs `operation` — a test double's answer — once an interleaving explorer lets this call complete: calls made
/// this way complete in an order the explorer chooses, so a search whose answers to "a" and "ab" may arrive either
/// way, or upload parts that may finish in any order, are explored both ways. Outside an explored run it runs
/// `operation` at once, as a plain test double does.
///
/// A waiting call counts as waiting on the test, so a `TestStore` never waits a timeout for it: a `receive` or
/// `finish` that needs it completes it.
///
/// ```swift
/// $0.searchClient.search = { query in
///   try await withRacing { try await results(for: query) }
/// }
/// ```
public func withRacing<T>(_ operation: nonisolated(nonsending) () async throws -> T) async rethrows -> T {
  if let runtime = TestRuntime.current, runtime.isExplored {
    await TestRuntime.waitingOnTheTest {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        runtime.addCompletion { continuation.resume() }
      }
    }
  }
  return try await operation()
}

extension TestRuntime {
  /// Runs `operation` — a wait that only the test ends — with the current effect counted as waiting on the test,
  /// as a ``TestClock`` sleep is.
  ///
  /// A test double that parks its caller on a continuation for the test to resume (a search client whose answer
  /// the test delivers) wraps that wait in it. Under a `TestStore` the store then knows nothing will happen until
  /// the test acts: `receive` and `finish` report at once that the effect waits, instead of waiting their whole
  /// timeout as for real I/O. Outside a test runtime it only runs `operation`.
  ///
  /// ```swift
  /// $0.search = { query in
  ///   await TestRuntime.waitingOnTheTest {
  ///     await withCheckedContinuation { pending.append(($0, query)) }
  ///   }
  /// }
  /// ```
  public static func waitingOnTheTest<T>(_ operation: nonisolated(nonsending) () async throws -> T)
    async rethrows -> T
  {
    guard let runtime = current else { return try await operation() }
    runtime.taskBlocked()
    defer { runtime.taskUnblocked() }
    return try await operation()
  }
}

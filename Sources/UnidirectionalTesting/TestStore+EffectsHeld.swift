import Unidirectional

extension TestStore {
  /// Runs `body` with the store's effects held, then runs them until each is suspended again: effects that `body`
  /// resumes (continuations a test double keeps for the test) run in the order `body` resumed them, every time.
  ///
  /// Between store calls, work that becomes ready runs in the background as it arrives (as effects do while a TCA
  /// test awaits something else), so two continuations resumed one after the other interleave by timing. Resume
  /// them here instead.
  ///
  /// ```swift
  /// await store.send(.searchTapped("a"))
  /// await store.send(.searchTapped("ab"))
  /// await store.withEffectsHeld {
  ///   search.respond(to: "ab", with: ["abc"])
  ///   search.respond(to: "a", with: ["apple"])
  /// }
  /// await store.receive(.searchResponse(["abc"])) { $0.results = ["abc"] }
  /// ```
  nonisolated(nonsending) public func withEffectsHeld(_ body: () throws -> Void) async rethrows {
    runtime.hold()
    defer { runtime.release() }
    try body()
    await runtime.settle()
  }
}

import Unidirectional

extension TestStore {
  /// Runs `check` on the state after every action the store reduces from now on — sent by the test or fed back by
  /// an effect — with the action that produced it: an invariant that must hold at every step, not only at the ones
  /// the test asserts. Under ``exploreInterleavings(_:replaying:reporter:fileID:filePath:line:column:_:)`` it holds
  /// in every schedule, or the explorer reports the first one where it broke.
  ///
  /// Report from it with `#expect` (Swift Testing) or `XCTAssert`.
  ///
  /// ```swift
  /// store.checkEveryState { state, action in
  ///   #expect(state.isTimerOn || action != .tick, "a tick after the timer stopped")
  /// }
  /// ```
  public func checkEveryState(_ check: @escaping @Sendable (_ state: State, _ action: Action) -> Void) {
    journal.invariants.withLock { $0.append(check) }
  }
}

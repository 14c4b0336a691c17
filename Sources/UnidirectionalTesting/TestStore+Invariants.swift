import Unidirectional

extension TestStore {
  /// Runs `check` on the state after every action the store reduces from now on — sent by the test or fed back by
  /// an effect — with the action that produced it: an invariant that must hold at every step, not only at the ones
  /// the test asserts. Under ``exploreInterleavings(_:replaying:reporter:fileID:filePath:line:column:_:)`` it holds
  /// in every schedule, or the explorer reports the first one where it broke.
  ///
  /// Report from it with `#expect` (Swift Testing) or `XCTAssert`. The closure need not be `@Sendable`: in a
  /// `@MainActor` test (every test of an Xcode 26 app target) it reads the state's fields as the test does. The
  /// store calls it one action at a time, with a copy of the state, from whichever thread reduced the action.
  ///
  /// ```swift
  /// store.checkEveryState { state, action in
  ///   #expect(state.isTimerOn || action != .tick, "a tick after the timer stopped")
  /// }
  /// ```
  public func checkEveryState(_ check: @escaping (_ state: State, _ action: Action) -> Void) {
    let invariant = Invariant(check: check)
    journal.invariants.withLock { $0.append(invariant) }
  }
}

/// A check ``TestStore/checkEveryState(_:)`` runs after every reduced action.
///
/// Unchecked: the store calls its checks only from `didReduce`, with its lock held — one at a time, never at once —
/// and hands each a copy of the state.
struct Invariant<State, Action>: @unchecked Sendable {
  let check: (State, Action) -> Void
}

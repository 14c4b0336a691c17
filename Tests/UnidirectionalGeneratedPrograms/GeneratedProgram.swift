/// A generated program: the rules of a root reducer and its four child reducers, and a script of test steps.
///
/// Every `.step(k)` action runs rule `k` of its reducer: it counts the action, records `k`, maybe writes the shared
/// total, maybe changes the children (root only), and returns the rule's effect. A rule sends only rules with a
/// higher index of its own reducer, so every program ends.
///
/// ```swift
/// let program = ProgramGenerator(seed: 42).program()
/// let failure = await TestStoreRun.check(program)   // nil: the store did what the model did
/// ```
struct GeneratedProgram: Hashable, Sendable {
  var rootRules: [Rule<RootTarget>]
  /// Indexed by ``ChildKind/rawValue``.
  var childRules: [[Rule<Int>]]
  var script: [ScriptStep]

  func rules(of kind: ChildKind) -> [Rule<Int>] { childRules[kind.rawValue] }
}

/// What an action `.step(k)` does: rule `k` of its reducer.
struct Rule<Target: Hashable & Sendable>: Hashable, Sendable {
  /// `state.$total.withLock { $0 += 1 }`.
  var writesShared = false
  /// A change of the children (root rules only).
  var structural: Structural?
  var effect: EffectSpec<Target>
}

/// One step of a test of the program.
enum ScriptStep: Hashable, Sendable {
  /// `await store.send(action)`, asserting the state it makes and receiving what its effects feed back.
  case send(RootTarget)
  /// `await clock.advance(by:)`, receiving what the woken effects feed back.
  case advance(milliseconds: Int)
  /// `await task.cancel()` on the task of an earlier step (its index in the script; a step that is not a send
  /// cancels nothing).
  case cancelTask(ofStep: Int)
}

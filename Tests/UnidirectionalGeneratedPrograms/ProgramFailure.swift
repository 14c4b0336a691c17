/// How a run of a generated program differed from the reference model.
///
/// ```swift
/// if let failure = await TestStoreRun.check(program) { print(failure) }
/// ```
package struct ProgramFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// Which kind of check failed: what the shrinker keeps failing while it makes the program smaller.
  enum Kind: String, Hashable, Sendable {
    /// The actions delivered (order, or per-step multisets where the order is open).
    case actions
    /// The `TestStore`'s own checks (a state assertion, an unexpected or missing action, an effect in flight).
    case testStore
    case finalState
    /// How the `run` effects ended (which were cancelled).
    case outcomes
    case issues
    /// The store still holds something after `finish()`.
    case bookkeeping
    /// A live store: an action a never-cancelled effect sent was not reduced.
    case lost
    /// A live store: a cancelled effect's action was reduced after the cancel returned.
    case afterCancel
  }

  var kind: Kind
  var message: String

  package var description: String { "\(kind.rawValue): \(message)" }
}

import Unidirectional

/// One action of a log replayed through a reducer: the action, where it came from, and the state before and
/// after it.
///
/// ```swift
/// while let step = try replay.next() {
///   print("step \(step.number): \(describe(step.action))")
///   if let change = step.stateDiff { print(change) }
/// }
/// ```
public struct ActionLogStep<State, Action> {
  /// The action's sequence number in the log (1 for the first action).
  public let number: Int
  /// The log line it was read from (the header is line 1).
  public let line: Int
  /// Sent by the host, or fed back by an effect.
  public let origin: ActionOrigin
  /// Time since recording started, on the recording store's clock.
  public let time: Duration
  /// The action.
  public let action: Action
  /// The state before the action.
  public let stateBefore: State
  /// The state after the action, as the reducer computes it now.
  public let state: State
  /// The fingerprint of the state after the action when it was recorded, if the log has fingerprints.
  public let recordedFingerprint: ActionLogFingerprint?
  /// The fingerprint of ``state``, when the replay verifies fingerprints and the line has one.
  public let replayedFingerprint: ActionLogFingerprint?
  /// What the reducer read from non-deterministic dependencies when the step was recorded (`nil` when it read
  /// nothing, or the log is older than exact replay): the replay gave it the same values.
  public let reads: ActionLogReads?
  /// What the store's effects read from them between the step before and this one, when recording.
  public let effectReads: ActionLogReads?
  /// The kinds of values the reducer now reads a different number of times than the recording did (see
  /// ``ActionLogReadMismatch``); empty when it reads what was recorded.
  public let readMismatches: [ActionLogReadMismatch]

  /// Whether the replayed state matches the recorded one; `nil` when there is nothing to compare. (A step can match
  /// and still read non-deterministic values differently: see ``readMismatches``.)
  public var matchesRecording: Bool? {
    guard let recordedFingerprint, let replayedFingerprint else { return nil }
    return recordedFingerprint == replayedFingerprint
  }

  /// What the action changed, as a line diff of the states (`nil` when it changed nothing). The same diff the
  /// `TestStore` prints on a mismatch.
  public var stateDiff: String? { diff(stateBefore, state) }
}

extension ActionLogStep: Sendable where State: Sendable, Action: Sendable {}

import Unidirectional

/// The first point where a replay's state differs from the recorded one: the reducer (or the state's shape)
/// changed since the log was recorded.
///
/// The state before the step matched the recording; the log keeps only a fingerprint of the state after it,
/// so the report shows what the action does to the state now.
///
/// ```swift
/// if let divergence = replay.firstDivergence { print(divergence) }
/// // step 3 (line 4): Counter.Action.tick — the replayed state differs from the recorded one …
/// ```
public struct ActionLogDivergence<Action>: CustomStringConvertible {
  /// The action's sequence number; 0 when the initial state itself no longer encodes the same way.
  public let number: Int
  /// The log line (1, the header, for the initial state).
  public let line: Int
  /// The action, `nil` for the initial state.
  public let action: Action?
  /// The recorded fingerprint.
  public let recordedFingerprint: ActionLogFingerprint
  /// The fingerprint of the replayed state.
  public let replayedFingerprint: ActionLogFingerprint
  /// What the action does to the state when replayed now (`nil` if nothing, or for the initial state).
  public let stateDiff: String?
  /// How the replayed state after the step differs from the recorded one (`-` recorded, `+` replayed), when the
  /// log carries states (`ActionRecorder(fileURL:states: true)`); `nil` without them or when both render alike.
  public let recordedStateDiff: String?

  /// The step, the action, both fingerprints and what the action now does to the state.
  public var description: String {
    let fingerprints =
      "(fingerprint recorded \(recordedFingerprint), replayed \(replayedFingerprint))"
    guard let action else {
      return """
        line \(line): the initial state decodes to a state that encodes differently \(fingerprints): \
        the State type changed since the log was recorded
        """
    }
    let change = stateDiff.map { "; the action now changes the state:\n\($0)" } ?? "; the action now changes nothing"
    let recorded = recordedStateDiff.map {
      "\nthe recorded state (-) and the replayed state (+) after the step:\n\($0)"
    }
    return """
      step \(number) (line \(line)): \(describe(action)) — the replayed state differs from the recorded one \
      \(fingerprints)\(change)\(recorded ?? "")
      """
  }
}

extension ActionLogDivergence: Sendable where Action: Sendable {}

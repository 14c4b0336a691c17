import Unidirectional

/// The first point where a replay differs from the recording: the reducer (or the state's shape) changed since the
/// log was recorded. Either the replayed state differs from the recorded one, or the step read more or fewer
/// non-deterministic values (`uuid()`, `date.now`, …) than the recording did, or both.
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
  /// The recorded fingerprint (`nil` when the log has none).
  public let recordedFingerprint: ActionLogFingerprint?
  /// The fingerprint of the replayed state (`nil` when it was not computed).
  public let replayedFingerprint: ActionLogFingerprint?
  /// The kinds of non-deterministic values the step read a different number of times than the recording did
  /// (empty when the values read match).
  public let readMismatches: [ActionLogReadMismatch]
  /// What the action does to the state when replayed now (`nil` if nothing, or for the initial state).
  public let stateDiff: String?
  /// How the replayed state after the step differs from the recorded one (`-` recorded, `+` replayed), when the
  /// log carries states (`ActionRecorder(fileURL:states: true)`); `nil` without them or when both render alike.
  public let recordedStateDiff: String?

  init(
    number: Int, line: Int, action: Action?, recordedFingerprint: ActionLogFingerprint?,
    replayedFingerprint: ActionLogFingerprint?, readMismatches: [ActionLogReadMismatch] = [], stateDiff: String?,
    recordedStateDiff: String?
  ) {
    self.number = number
    self.line = line
    self.action = action
    self.recordedFingerprint = recordedFingerprint
    self.replayedFingerprint = replayedFingerprint
    self.readMismatches = readMismatches
    self.stateDiff = stateDiff
    self.recordedStateDiff = recordedStateDiff
  }

  /// Whether the replayed state differs from the recorded one.
  public var statesDiffer: Bool {
    guard let recordedFingerprint, let replayedFingerprint else { return false }
    return recordedFingerprint != replayedFingerprint
  }

  /// The step, the action, what differs (the fingerprints, the values read) and what the action now does to the
  /// state.
  public var description: String {
    let recordedText = recordedFingerprint.map { "\($0)" } ?? "none"
    let replayedText = replayedFingerprint.map { "\($0)" } ?? "none"
    let fingerprints = "(fingerprint recorded \(recordedText), replayed \(replayedText))"
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
    var causes: [String] = []
    if !readMismatches.isEmpty {
      causes.append(
        "the reducer reads non-deterministic values a different number of times than when it was recorded ("
          + readMismatches.map(\.description).joined(separator: "; ") + ")")
    }
    if statesDiffer { causes.append("the replayed state differs from the recorded one \(fingerprints)") }
    return """
      step \(number) (line \(line)): \(describe(action)) — \(causes.joined(separator: ", and "))\
      \(change)\(recorded ?? "")
      """
  }
}

extension ActionLogDivergence: Sendable where Action: Sendable {}

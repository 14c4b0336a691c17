/// Where a capture session is in its life, and the table of which events may move it on.
///
/// A session goes `initializing → ready → detecting → capturing → finishing → completed`, one step at a time, or
/// to `failed(reason)` from any live state. `completed` and `failed` are final. The table is a pure function, so
/// every (state, event) pair is tested on its own:
///
/// ```swift
/// CaptureSessionState.ready.transition(on: .stateChanged(.detecting))   // .advance(to: .detecting)
/// CaptureSessionState.ready.transition(on: .stateChanged(.capturing))   // .reject(…skips detecting…)
/// CaptureSessionState.completed.transition(on: .shotCaptured(shot))    // .ignore: the session is over
/// ```
public enum CaptureSessionState: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The session is starting up.
  case initializing
  /// The session runs and waits for the user to point at the object.
  case ready
  /// The session looks for the object's bounds.
  case detecting
  /// The session takes shots.
  case capturing
  /// The session writes its last shots.
  case finishing
  /// Every shot is written; the shots can become a model. Final.
  case completed
  /// The session stopped with an error (or the user cancelled it). Final.
  case failed(reason: String)

  /// The states a session passes through when all goes well, in order.
  public static let forwardPath: [CaptureSessionState] = [
    .initializing, .ready, .detecting, .capturing, .finishing, .completed,
  ]

  /// The reason a session the user cancelled fails with.
  public static let cancelledReason = "The capture was cancelled."

  /// The one state a session may move to from this one, other than `failed`; nil for final states.
  public var next: CaptureSessionState? {
    switch self {
    case .initializing: return .ready
    case .ready: return .detecting
    case .detecting: return .capturing
    case .capturing: return .finishing
    case .finishing: return .completed
    case .completed, .failed: return nil
    }
  }

  /// Whether the session is over (`completed` or `failed`): nothing moves it any more.
  public var isFinal: Bool { next == nil }

  /// Whether the session is running: neither completed nor failed.
  public var isLive: Bool { !isFinal }

  /// The position on ``forwardPath`` (`failed` has none).
  var step: Int? { Self.forwardPath.firstIndex(of: self) }

  /// What `event` does to a session in this state: the whole transition table.
  ///
  /// - Live states accept the next state on ``forwardPath`` and `failed(reason)`; any other state change (back,
  ///   ahead by more than one, the same state again) is rejected.
  /// - Shots are kept only while `capturing`; elsewhere in a live session they are rejected.
  /// - Final states ignore everything: late events of a finished session are expected and harmless.
  public func transition(on event: CaptureSessionEvent) -> CaptureSessionTransition {
    guard isLive else { return .ignore }
    switch event {
    case let .shotCaptured(shot):
      return self == .capturing ? .keep(shot) : .reject(CaptureSessionTransitionError(state: self, event: event))
    case let .stateChanged(target):
      if case .failed = target { return .advance(to: target) }
      if target == next { return .advance(to: target) }
      return .reject(CaptureSessionTransitionError(state: self, event: event))
    }
  }

  /// `ready`, `capturing`, `failed: <reason>`, …
  public var description: String {
    switch self {
    case .initializing: return "initializing"
    case .ready: return "ready"
    case .detecting: return "detecting"
    case .capturing: return "capturing"
    case .finishing: return "finishing"
    case .completed: return "completed"
    case let .failed(reason): return "failed: \(reason)"
    }
  }
}

/// An event a live capture session refused because it would break the lifecycle: a state change that goes back,
/// skips ahead or repeats, or a shot outside `capturing`. The session's state is left as it was.
///
/// ```swift
/// let error = CaptureSessionTransitionError(state: .ready, event: .stateChanged(.capturing))
/// print(error)
/// // The session is ready and cannot skip ahead to capturing; the next step is detecting.
/// ```
public struct CaptureSessionTransitionError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The state the session was in (and stays in).
  public var state: CaptureSessionState
  /// The event it refused.
  public var event: CaptureSessionEvent

  /// The refusal of `event` in `state`.
  public init(state: CaptureSessionState, event: CaptureSessionEvent) {
    self.state = state
    self.event = event
  }

  /// Why the event was refused, in words the user can read.
  public var description: String {
    switch event {
    case let .shotCaptured(shot):
      return "Shot \(shot.number) arrived while the session was \(state); shots are taken only while capturing."
    case let .stateChanged(target):
      let refusal: String
      if target == state {
        refusal = "The session is already \(state)"
      } else if let from = state.step, let to = target.step, to < from {
        refusal = "The session is \(state) and cannot go back to \(target)"
      } else {
        refusal = "The session is \(state) and cannot skip ahead to \(target)"
      }
      return refusal + (state.next.map { "; the next step is \($0)." } ?? ".")
    }
  }
}

/// The outcome of one event for a capture session: the row of the transition table that applies.
///
/// ```swift
/// switch state.session.transition(on: event) {
/// case let .advance(to: next): state.session = next
/// case let .keep(shot): state.shots.append(shot)
/// case .ignore: break
/// case let .reject(error): state.refusal = error
/// }
/// ```
public enum CaptureSessionTransition: Hashable, Sendable {
  /// The session moves to this state.
  case advance(to: CaptureSessionState)
  /// The session stays where it is and keeps this shot.
  case keep(CaptureShot)
  /// The session is over: the event arrived late and changes nothing.
  case ignore
  /// The event is not legal in the session's state: nothing changes, and the error is shown to the user.
  case reject(CaptureSessionTransitionError)
}

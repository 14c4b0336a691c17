/// What a capture session reports through ``CaptureSessionClient``: it moved to another state, or it took a shot.
///
/// ```swift
/// for try await event in captureSession.start(configuration) {
///   switch event {
///   case let .stateChanged(state): print("session is \(state)")
///   case let .shotCaptured(shot): print("shot \(shot.number) at \(shot.fileURL.path)")
///   }
/// }
/// ```
public enum CaptureSessionEvent: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The session says it is now in this state.
  case stateChanged(CaptureSessionState)
  /// The session wrote a shot.
  case shotCaptured(CaptureShot)

  /// `state → capturing`, `shot 3`.
  public var description: String {
    switch self {
    case let .stateChanged(state): return "state → \(state)"
    case let .shotCaptured(shot): return "shot \(shot.number)"
    }
  }
}

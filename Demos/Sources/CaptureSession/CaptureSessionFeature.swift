import Foundation
import Unidirectional

/// A capture session's lifecycle on screen: it starts the session, follows its events through the lifecycle
/// rules of ``CaptureSessionState``, and offers *Create 3D model* once the session has completed.
///
/// What the user sees, ``State/screen``, is computed from the session's state, never stored next to it: the
/// capture screen exists only while the session is live and not released, so it can never be shown for a session
/// that has completed or gone away (the seed app's "Cannot make a view for a deinitialized
/// ObjectCaptureSession" crash).
///
/// The event subscription is cancelled when the session completes or fails, when the user cancels, when the
/// feature is released (``Action/released``), and when a parent drops the feature's state (`ifLet`).
///
/// ```swift
/// let store = Store(initialState: CaptureSessionFeature.State(configuration: configuration)) {
///   CaptureSessionFeature()
/// }
/// store.send(.start)
/// // … events arrive; once `store.screen == .completed(shotCount: 8)`:
/// store.send(.createModelTapped)   // → .delegate(.createModel(shots))
/// ```
public struct CaptureSessionFeature: Reducer {
  /// What the user sees, derived from the session.
  ///
  /// ```swift
  /// switch store.screen {
  /// case let .capture(phase, shotCount, warning): showCaptureView(phase, shotCount, warning)
  /// case let .completed(shotCount): showCreateModelButton(shotCount)
  /// case let .failed(reason): showError(reason)
  /// case .closed: break
  /// }
  /// ```
  public enum Screen: Hashable, Sendable {
    /// The live capture view: the session's state, the shots so far and the last refused event, if any.
    case capture(phase: CaptureSessionState, shotCount: Int, warning: String?)
    /// The session completed: its shot count and the *Create 3D model* button.
    case completed(shotCount: Int)
    /// The session failed: the reason.
    case failed(reason: String)
    /// The session was released before it completed: nothing of it is shown.
    case closed

    /// Whether this is the live capture view (the one that needs a running session).
    public var isCaptureView: Bool {
      if case .capture = self { return true }
      return false
    }

    /// The title of the screen's main button: *Cancel* while capturing, *Create 3D model* once completed.
    public var buttonTitle: String? {
      switch self {
      case .capture: return "Cancel"
      case .completed: return CaptureSessionFeature.createModelTitle
      case .failed, .closed: return nil
      }
    }
  }

  /// The feature's state.
  ///
  /// ```swift
  /// let state = CaptureSessionFeature.State(configuration: configuration, session: .capturing)
  /// state.screen   // .capture(phase: .capturing, shotCount: 0, warning: nil)
  /// ```
  public struct State: Equatable, Sendable, Codable {
    /// Where the session writes its shots.
    public var configuration: CaptureSessionConfiguration
    /// Where the session is in its lifecycle.
    public var session: CaptureSessionState
    /// The shots taken so far, in order.
    public var shots: [CaptureShot]
    /// Whether ``Action/start`` has started the session.
    public var hasStarted: Bool
    /// Whether the session has been released (the capture view went away): no event is handled any more.
    public var isReleased: Bool
    /// The last event the session refused, shown to the user until the next accepted event.
    public var refusal: CaptureSessionTransitionError?

    /// A session not started yet, writing its shots into `configuration.imagesDirectory`.
    public init(
      configuration: CaptureSessionConfiguration,
      session: CaptureSessionState = .initializing,
      shots: [CaptureShot] = [],
      hasStarted: Bool = false,
      isReleased: Bool = false,
      refusal: CaptureSessionTransitionError? = nil
    ) {
      self.configuration = configuration
      self.session = session
      self.shots = shots
      self.hasStarted = hasStarted
      self.isReleased = isReleased
      self.refusal = refusal
    }

    /// What the user sees: computed from ``session`` and ``isReleased`` every time it is read.
    public var screen: Screen {
      switch session {
      case .completed:
        return .completed(shotCount: shots.count)
      case let .failed(reason):
        return .failed(reason: reason)
      case .initializing, .ready, .detecting, .capturing, .finishing:
        if isReleased { return .closed }
        return .capture(phase: session, shotCount: shots.count, warning: refusal?.description)
      }
    }
  }

  /// Everything that can happen to the feature.
  ///
  /// ```swift
  /// store.send(.start)               // the capture view appeared
  /// store.send(.createModelTapped)   // on the completed screen
  /// store.send(.released)            // the capture view went away
  /// ```
  public enum Action: Equatable, Sendable, Codable {
    /// The capture view appeared: start the session and follow its events.
    case start
    /// The session reported an event.
    case sessionEvent(CaptureSessionEvent)
    /// The session's event stream ended.
    case sessionEventsEnded
    /// The session's event stream failed.
    case sessionEventsFailed(CaptureSessionError)
    /// The user cancelled the capture.
    case cancelTapped
    /// The user tapped *Create 3D model* on the completed screen.
    case createModelTapped
    /// The capture view went away: stop following the session.
    case released
    /// Messages for the parent.
    case delegate(Delegate)

    /// What the parent is told.
    ///
    /// ```swift
    /// case let .capture(.delegate(.createModel(shots))): return reconstruct(shots)
    /// ```
    public enum Delegate: Equatable, Sendable, Codable {
      /// Make a model of these shots (the user tapped *Create 3D model*).
      case createModel([CaptureShot])
    }
  }

  /// The ids of the feature's long-running effects.
  ///
  /// ```swift
  /// return .cancel(id: CaptureSessionFeature.CancelID.events)
  /// ```
  public enum CancelID: Hashable, Sendable {
    /// The subscription to the session's events.
    case events
  }

  /// The title of the completed screen's button.
  public static let createModelTitle = "Create 3D model"

  /// The reason a session fails with when its events stop before it completes.
  public static let endedEarlyReason = "The capture session ended before it completed."

  @Dependency(\.captureSession) var captureSession

  /// The feature.
  public init() {}

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        guard !state.hasStarted, !state.isReleased, state.session == .initializing else { return .none }
        state.hasStarted = true
        let (captureSession, configuration) = (captureSession, state.configuration)
        return .run { send in
          for try await event in captureSession.start(configuration) {
            send(.sessionEvent(event))
          }
          send(.sessionEventsEnded)
        } catch: { error, send in
          send(.sessionEventsFailed(CaptureSessionError(error)))
        }
        .cancellable(id: CancelID.events, cancelInFlight: true)

      case let .sessionEvent(event):
        guard !state.isReleased else { return .none }
        return apply(event, to: &state)

      case .sessionEventsEnded:
        guard !state.isReleased else { return .none }
        return apply(.stateChanged(.failed(reason: Self.endedEarlyReason)), to: &state)

      case let .sessionEventsFailed(error):
        guard !state.isReleased else { return .none }
        return apply(.stateChanged(.failed(reason: error.description)), to: &state)

      case .cancelTapped:
        guard !state.isReleased else { return .none }
        return apply(.stateChanged(.failed(reason: CaptureSessionState.cancelledReason)), to: &state)

      case .createModelTapped:
        guard state.session == .completed else { return .none }
        return .send(.delegate(.createModel(state.shots)))

      case .released:
        state.isReleased = true
        return .cancel(id: CancelID.events)

      case .delegate:
        return .none
      }
    }
  }

  /// Runs `event` through the transition table; a final state ends the subscription.
  private func apply(_ event: CaptureSessionEvent, to state: inout State) -> Effect<Action> {
    switch state.session.transition(on: event) {
    case let .advance(to: next):
      state.session = next
      state.refusal = nil
      return next.isFinal ? .cancel(id: CancelID.events) : .none
    case let .keep(shot):
      state.shots.append(shot)
      state.refusal = nil
      return .none
    case .ignore:
      return .none
    case let .reject(error):
      state.refusal = error
      return .none
    }
  }
}

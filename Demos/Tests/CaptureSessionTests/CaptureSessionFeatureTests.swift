import CaptureSession
import FeatureTestSupport
import Foundation
import Unidirectional
import UnidirectionalTesting
import XCTest

final class CaptureSessionFeatureTests: XCTestCase {
  private typealias Feature = CaptureSessionFeature

  private func makeStore(
    _ session: FakeCaptureSession, state: Feature.State = Feature.State(configuration: CaptureFixtures.configuration)
  ) -> TestStore<Feature.State, Feature.Action> {
    TestStore(initialState: state) {
      CaptureSessionFeature()
    } withDependencies: {
      $0.captureSession = session.client
    }
  }

  func testAWholeSessionEndsOnTheCompletedScreenAndStopsListening() async {
    let session = FakeCaptureSession()
    let store = makeStore(session)
    XCTAssertEqual(store.state.screen, .capture(phase: .initializing, shotCount: 0, warning: nil))

    await store.send(.start) { $0.hasStarted = true }
    XCTAssertEqual(session.configurations, [CaptureFixtures.configuration])

    session.send(.stateChanged(.ready))
    await store.receive(.sessionEvent(.stateChanged(.ready))) { $0.session = .ready }
    session.send(.stateChanged(.detecting))
    await store.receive(.sessionEvent(.stateChanged(.detecting))) { $0.session = .detecting }
    session.send(.stateChanged(.capturing))
    await store.receive(.sessionEvent(.stateChanged(.capturing))) { $0.session = .capturing }
    session.send(.shotCaptured(CaptureFixtures.shot(1)))
    await store.receive(.sessionEvent(.shotCaptured(CaptureFixtures.shot(1)))) {
      $0.shots = [CaptureFixtures.shot(1)]
    }
    session.send(.shotCaptured(CaptureFixtures.shot(2)))
    await store.receive(.sessionEvent(.shotCaptured(CaptureFixtures.shot(2)))) {
      $0.shots.append(CaptureFixtures.shot(2))
    }
    XCTAssertEqual(store.state.screen, .capture(phase: .capturing, shotCount: 2, warning: nil))
    XCTAssertEqual(store.state.screen.buttonTitle, "Cancel")
    session.send(.stateChanged(.finishing))
    await store.receive(.sessionEvent(.stateChanged(.finishing))) { $0.session = .finishing }
    XCTAssertEqual(session.terminations, [], "still listening while finishing")

    session.send(.stateChanged(.completed))
    await store.receive(.sessionEvent(.stateChanged(.completed))) { $0.session = .completed }
    XCTAssertEqual(store.state.screen, .completed(shotCount: 2))
    XCTAssertEqual(store.state.screen.buttonTitle, "Create 3D model")
    XCTAssertFalse(store.state.screen.isCaptureView)
    XCTAssertEqual(session.terminations, ["cancelled"], "completion cancels the subscription")

    await store.send(.createModelTapped)
    await store.receive(.delegate(.createModel([CaptureFixtures.shot(1), CaptureFixtures.shot(2)])))
    await store.finish()
  }

  func testEventsAfterCompletedAreIgnored() async {
    let session = FakeCaptureSession()
    let completed = Feature.State(
      configuration: CaptureFixtures.configuration, session: .finishing, shots: [CaptureFixtures.shot(1)])
    let store = makeStore(session, state: completed)
    await store.send(.start)  // a finishing session is already running: no new subscription
    XCTAssertEqual(session.configurations, [])

    await store.send(.sessionEvent(.stateChanged(.completed))) { $0.session = .completed }
    for event in CaptureFixtures.allEvents {
      await store.send(.sessionEvent(event))
    }
    await store.send(.sessionEventsEnded)
    await store.send(.sessionEventsFailed(.failed("late")))
    await store.send(.cancelTapped)
    XCTAssertEqual(store.state.session, .completed)
    XCTAssertEqual(store.state.shots, [CaptureFixtures.shot(1)])
    XCTAssertNil(store.state.refusal)
    await store.finish()
  }

  func testLateEventsFromTheStreamAreNotDeliveredOnceCompleted() async {
    let session = FakeCaptureSession()
    let store = makeStore(
      session, state: Feature.State(configuration: CaptureFixtures.configuration, session: .initializing))
    await store.send(.start) { $0.hasStarted = true }
    for state in [CaptureSessionState.ready, .detecting, .capturing, .finishing] {
      session.send(.stateChanged(state))
      await store.receive(.sessionEvent(.stateChanged(state))) { $0.session = state }
    }
    session.send(.stateChanged(.completed))
    await store.receive(.sessionEvent(.stateChanged(.completed))) { $0.session = .completed }

    XCTAssertFalse(session.send(.shotCaptured(CaptureFixtures.shot(9))), "the stream has no subscriber any more")
    XCTAssertFalse(session.send(.stateChanged(.failed(reason: "late"))))
    await store.finish()  // fails if anything was received
    XCTAssertEqual(store.state.session, .completed)
  }

  func testAnIllegalEventLeavesTheStateAndShowsAnError() async {
    let session = FakeCaptureSession()
    let store = makeStore(session)
    await store.send(.start) { $0.hasStarted = true }
    session.send(.stateChanged(.ready))
    await store.receive(.sessionEvent(.stateChanged(.ready))) { $0.session = .ready }

    session.send(.stateChanged(.capturing))
    let skip = CaptureSessionTransitionError(state: .ready, event: .stateChanged(.capturing))
    await store.receive(.sessionEvent(.stateChanged(.capturing))) { $0.refusal = skip }
    XCTAssertEqual(store.state.session, .ready)
    XCTAssertEqual(
      store.state.screen,
      .capture(
        phase: .ready, shotCount: 0,
        warning: "The session is ready and cannot skip ahead to capturing; the next step is detecting."))

    session.send(.shotCaptured(CaptureFixtures.shot(1)))
    await store.receive(.sessionEvent(.shotCaptured(CaptureFixtures.shot(1)))) {
      $0.refusal = CaptureSessionTransitionError(state: .ready, event: .shotCaptured(CaptureFixtures.shot(1)))
    }
    XCTAssertEqual(store.state.shots, [])

    session.send(.stateChanged(.initializing))
    await store.receive(.sessionEvent(.stateChanged(.initializing))) {
      $0.refusal = CaptureSessionTransitionError(state: .ready, event: .stateChanged(.initializing))
    }

    session.send(.stateChanged(.detecting))
    await store.receive(.sessionEvent(.stateChanged(.detecting))) {
      $0.session = .detecting
      $0.refusal = nil
    }
    XCTAssertEqual(session.terminations, [], "a refused event does not end the session")
    await store.send(.released) { $0.isReleased = true }
    XCTAssertEqual(session.terminations, ["cancelled"])
    await store.finish()
  }

  func testASessionFailureEndsTheSubscription() async {
    let session = FakeCaptureSession()
    let store = makeStore(session)
    await store.send(.start) { $0.hasStarted = true }
    session.send(.stateChanged(.ready))
    await store.receive(.sessionEvent(.stateChanged(.ready))) { $0.session = .ready }
    session.send(.stateChanged(.failed(reason: "Not enough light")))
    await store.receive(.sessionEvent(.stateChanged(.failed(reason: "Not enough light")))) {
      $0.session = .failed(reason: "Not enough light")
    }
    XCTAssertEqual(store.state.screen, .failed(reason: "Not enough light"))
    XCTAssertNil(store.state.screen.buttonTitle)
    XCTAssertEqual(session.terminations, ["cancelled"])
    await store.send(.createModelTapped)  // no model from a failed session
    await store.finish()
  }

  func testAStreamErrorFailsTheSession() async {
    let session = FakeCaptureSession()
    let store = makeStore(session)
    await store.send(.start) { $0.hasStarted = true }
    session.send(.stateChanged(.ready))
    await store.receive(.sessionEvent(.stateChanged(.ready))) { $0.session = .ready }
    let error = CaptureSessionError.cannotWriteShot(path: "/scan/images/shot-001.png", reason: "the disk is full")
    session.fail(error)
    await store.receive(.sessionEventsFailed(error)) {
      $0.session = .failed(reason: "Cannot write the shot shot-001.png: the disk is full.")
    }
    await store.finish()
  }

  func testAStreamThatEndsEarlyFailsTheSession() async {
    let session = FakeCaptureSession()
    let store = makeStore(session)
    await store.send(.start) { $0.hasStarted = true }
    session.send(.stateChanged(.ready))
    await store.receive(.sessionEvent(.stateChanged(.ready))) { $0.session = .ready }
    session.end()
    await store.receive(.sessionEventsEnded) {
      $0.session = .failed(reason: "The capture session ended before it completed.")
    }
    XCTAssertEqual(session.terminations, ["finished"])
    await store.finish()
  }

  func testCancellingTheCaptureFailsItAndStopsListening() async {
    let session = FakeCaptureSession()
    let store = makeStore(session)
    await store.send(.start) { $0.hasStarted = true }
    session.send(.stateChanged(.ready))
    await store.receive(.sessionEvent(.stateChanged(.ready))) { $0.session = .ready }
    await store.send(.cancelTapped) { $0.session = .failed(reason: "The capture was cancelled.") }
    XCTAssertEqual(session.terminations, ["cancelled"])
    XCTAssertFalse(session.send(.stateChanged(.detecting)))
    await store.finish()
  }

  func testReleasingALiveSessionClosesItsScreenAndIgnoresLaterEvents() async {
    let session = FakeCaptureSession()
    let store = makeStore(session)
    await store.send(.start) { $0.hasStarted = true }
    session.send(.stateChanged(.ready))
    await store.receive(.sessionEvent(.stateChanged(.ready))) { $0.session = .ready }

    await store.send(.released) { $0.isReleased = true }
    XCTAssertEqual(session.terminations, ["cancelled"])
    XCTAssertEqual(store.state.screen, .closed)
    XCTAssertFalse(store.state.screen.isCaptureView)

    // An event that reaches the feature anyway (sent directly) changes nothing: the session is gone.
    await store.send(.sessionEvent(.stateChanged(.detecting)))
    await store.send(.sessionEventsEnded)
    await store.send(.cancelTapped)
    await store.send(.start)
    XCTAssertEqual(session.configurations.count, 1, "a released session is never restarted")
    XCTAssertEqual(store.state.screen, .closed)
    await store.finish()
  }

  /// A parent that drops the feature's state (`ifLet`) while the session is live ends the subscription too.
  func testAParentDroppingTheFeatureCancelsTheSubscription() async {
    let session = FakeCaptureSession()
    let store = TestStore(
      initialState: CaptureHost.State(capture: Feature.State(configuration: CaptureFixtures.configuration))
    ) {
      CaptureHost()
    } withDependencies: {
      $0.captureSession = session.client
    }
    await store.send(.capture(.start)) { $0.capture?.hasStarted = true }
    session.send(.stateChanged(.ready))
    await store.receive(.capture(.sessionEvent(.stateChanged(.ready)))) { $0.capture?.session = .ready }
    await store.send(.dismiss) { $0.capture = nil }
    XCTAssertEqual(session.terminations, ["cancelled"])
    XCTAssertFalse(session.send(.stateChanged(.detecting)), "nobody listens to the session any more")
    await store.finish()
  }

  func testACompletedSessionThatIsReleasedStillOffersTheModel() async {
    let session = FakeCaptureSession()
    let store = makeStore(
      session,
      state: Feature.State(
        configuration: CaptureFixtures.configuration, session: .completed, shots: [CaptureFixtures.shot(1)],
        hasStarted: true))
    await store.send(.released) { $0.isReleased = true }
    XCTAssertEqual(store.state.screen, .completed(shotCount: 1))
    await store.send(.createModelTapped)
    await store.receive(.delegate(.createModel([CaptureFixtures.shot(1)])))
    await store.finish()
  }

  func testCreateModelIsRefusedBeforeTheSessionCompletes() async {
    for session in CaptureFixtures.allStates where session != .completed {
      let store = makeStore(
        FakeCaptureSession(),
        state: Feature.State(
          configuration: CaptureFixtures.configuration, session: session, shots: [CaptureFixtures.shot(1)]))
      XCTAssertNotEqual(store.state.screen.buttonTitle, "Create 3D model", "\(session)")
      await store.send(.createModelTapped)  // no delegate action: finish() would fail on one
      await store.finish()
    }
  }

  func testStartingTwiceSubscribesOnce() async {
    let session = FakeCaptureSession()
    let store = makeStore(session)
    await store.send(.start) { $0.hasStarted = true }
    await store.send(.start)
    XCTAssertEqual(session.configurations.count, 1)
    await store.send(.released) { $0.isReleased = true }
    await store.finish()
  }

  /// The seed app's crash: a capture view made for a session that had completed or been released. The screen is
  /// derived from the session, so for every state and release flag the capture view exists only for a live,
  /// unreleased session.
  func testTheCaptureScreenNeverShowsForACompletedOrReleasedSession() {
    for session in CaptureFixtures.allStates {
      for isReleased in [false, true] {
        for shots in [[], [CaptureFixtures.shot(1)]] {
          let state = Feature.State(
            configuration: CaptureFixtures.configuration, session: session, shots: shots, hasStarted: true,
            isReleased: isReleased)
          let expectsCaptureView = session.isLive && !isReleased
          XCTAssertEqual(state.screen.isCaptureView, expectsCaptureView, "\(session), released: \(isReleased)")
          switch session {
          case .completed: XCTAssertEqual(state.screen, .completed(shotCount: shots.count))
          case let .failed(reason): XCTAssertEqual(state.screen, .failed(reason: reason))
          default:
            XCTAssertEqual(
              state.screen, isReleased ? .closed : .capture(phase: session, shotCount: shots.count, warning: nil))
          }
        }
      }
    }
  }

  func testTheUnimplementedClientFailsTheTest() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: Feature.State(configuration: CaptureFixtures.configuration),
      reducer: { CaptureSessionFeature() },
      reporter: failures.reporter)
    await store.send(.start) { $0.hasStarted = true }
    await store.receive(
      .sessionEventsFailed(.notConfigured("CaptureSessionClient.start is unimplemented in tests"))
    ) {
      $0.session = .failed(
        reason: "The capture session is not configured: CaptureSessionClient.start is unimplemented in tests")
    }
    await store.finish()
    XCTAssertEqual(failures.messages.count, 1, "\(failures.messages)")
    XCTAssertTrue(
      failures.messages.first?.contains("CaptureSessionClient.start is unimplemented") ?? false, "\(failures.messages)")
  }
}

/// A minimal parent presenting the capture optionally, as a navigation destination would.
private struct CaptureHost: Reducer {
  struct State: Equatable {
    var capture: CaptureSessionFeature.State?
  }

  enum Action: Equatable {
    case capture(CaptureSessionFeature.Action)
    case dismiss

    static let captureCase = CasePath(Action.capture) {
      if case let .capture(action) = $0 { action } else { nil }
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .dismiss = action { state.capture = nil }
      return .none
    }
    .ifLet(\.capture, action: Action.captureCase) {
      CaptureSessionFeature()
    }
  }
}

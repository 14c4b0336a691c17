import Foundation
import Unidirectional

/// Runs capture sessions: the dependency ``CaptureSessionFeature`` gets its session events from.
///
/// `start` begins a session writing into the configuration's images folder and returns its events as an async
/// stream. The session runs while the stream is iterated; cancelling the iterating task ends it. On Linux there is
/// no capture hardware: both the live and the preview value are the simulator
/// (``CaptureSessionClient/simulator(script:shots:)``), which waits on the injected clock.
///
/// ```swift
/// // A test decides every event:
/// let (events, session) = AsyncThrowingStream.makeStream(of: CaptureSessionEvent.self)
/// $0.captureSession.start = { _ in events }
/// session.yield(.stateChanged(.ready))
/// ```
public struct CaptureSessionClient: Sendable {
  /// Starts a session with `configuration` and streams its events until it completes, fails or is cancelled.
  public var start:
    @Sendable (_ configuration: CaptureSessionConfiguration) -> AsyncThrowingStream<CaptureSessionEvent, any Error>

  /// A client whose sessions are run by `start`.
  public init(
    start:
      @escaping @Sendable (_ configuration: CaptureSessionConfiguration) -> AsyncThrowingStream<
        CaptureSessionEvent, any Error
      >
  ) {
    self.start = start
  }

  /// Fails the test that uses it: tests must say which events the session sends.
  public static let unimplemented = CaptureSessionClient { _ in
    reportIssue("CaptureSessionClient.start is unimplemented: override \\.captureSession in this test.")
    return AsyncThrowingStream {
      throw CaptureSessionError.notConfigured("CaptureSessionClient.start is unimplemented in tests")
    }
  }
}

private enum CaptureSessionClientKey: DependencyKey {
  static let liveValue = CaptureSessionClient.simulator()
  static let previewValue = CaptureSessionClient.simulator()
  static let testValue = CaptureSessionClient.unimplemented
}

extension DependencyValues {
  /// The capture sessions ``CaptureSessionFeature`` runs: the simulator live and in previews (there is no capture
  /// hardware on Linux), unimplemented in tests until overridden.
  public var captureSession: CaptureSessionClient {
    get { self[CaptureSessionClientKey.self] }
    set { self[CaptureSessionClientKey.self] = newValue }
  }
}

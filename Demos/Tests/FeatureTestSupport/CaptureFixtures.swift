import CaptureSession
import Foundation

/// A capture session the test drives by hand: every `start` opens a stream whose events the test sends.
public final class FakeCaptureSession: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: AsyncThrowingStream<CaptureSessionEvent, any Error>.Continuation?
  private var startedConfigurations: [CaptureSessionConfiguration] = []
  private var endings: [String] = []

  /// A session nobody has started yet.
  public init() {}

  /// The client to inject as `\.captureSession`.
  public var client: CaptureSessionClient {
    CaptureSessionClient { configuration in
      let (stream, continuation) = AsyncThrowingStream.makeStream(of: CaptureSessionEvent.self)
      continuation.onTermination = { termination in
        let ending: String
        switch termination {
        case .cancelled: ending = "cancelled"
        case .finished: ending = "finished"
        @unknown default: ending = "unknown"
        }
        self.lock.withLock { self.endings.append(ending) }
      }
      self.lock.withLock {
        self.continuation = continuation
        self.startedConfigurations.append(configuration)
      }
      return stream
    }
  }

  /// Sends `event` on the current session; returns whether a subscriber could still receive it.
  @discardableResult
  public func send(_ event: CaptureSessionEvent) -> Bool {
    let continuation = lock.withLock { self.continuation }
    guard let continuation else { return false }
    if case .enqueued = continuation.yield(event) { return true }
    return false
  }

  /// Ends the current session's stream with `error`.
  public func fail(_ error: any Error) {
    lock.withLock { continuation }?.finish(throwing: error)
  }

  /// Ends the current session's stream normally.
  public func end() {
    lock.withLock { continuation }?.finish()
  }

  /// The configurations sessions were started with.
  public var configurations: [CaptureSessionConfiguration] { lock.withLock { startedConfigurations } }

  /// How each session's stream ended (`cancelled` when the subscriber went away), in order.
  public var terminations: [String] { lock.withLock { endings } }
}

public enum CaptureFixtures {
  public static let configuration = CaptureSessionConfiguration(
    imagesDirectory: URL(fileURLWithPath: "/scan/images", isDirectory: true))

  public static func shot(_ number: Int) -> CaptureShot {
    CaptureShot(number: number, fileURL: URL(fileURLWithPath: "/scan/images/shot-00\(number).png"), byteCount: 100)
  }

  /// Every state a session can be in (one failure stands for all reasons).
  public static let allStates: [CaptureSessionState] = [
    .initializing, .ready, .detecting, .capturing, .finishing, .completed, .failed(reason: "No light"),
  ]

  /// Every event a session can report: a change to each state, and a shot.
  public static let allEvents: [CaptureSessionEvent] =
    allStates.map { CaptureSessionEvent.stateChanged($0) } + [.shotCaptured(shot(1))]
}

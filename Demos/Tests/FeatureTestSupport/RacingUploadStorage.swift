import Foundation
import HTTPClient
import ImageUpload
import Unidirectional

/// Storage in memory shaped like the live presigned flow — one presign call, then a PUT per item through
/// `UploadConcurrency` (at most ``limit`` at a time) reporting through `UploadProgressReporter` — whose every answer
/// races (`withRacing`): under an interleaving explorer, which PUT finishes first, and where the user's taps land
/// between them, is the explorer's choice. It counts what explored tests check.
public final class RacingUploadStorage: Sendable {
  struct Counts {
    var inFlight = 0
    var mostInFlight = 0
    var putsAfterLeaving = 0
    var hasLeft = false
  }
  private let counts = LockIsolated(Counts())

  /// Storage nobody has uploaded to.
  public init() {}

  /// The client to inject as `\.imageUploadClient`.
  public var client: ImageUploadClient { ImageUploadClient(upload: upload) }

  /// At most this many PUTs at once, as `UploadServerConfiguration.maxConcurrentUploads` says.
  public static let limit = 2

  /// The presigned flow without HTTP: presign, then the PUTs. As the live engines do, a request is not started
  /// once the task is cancelled, and one in flight ends with `CancellationError` when it is — once the server has
  /// done its part: each answer waits for the explorer even when cancelled (`ifCancelled: .isIgnored`).
  public func upload(
    _ items: [UploadItem], _ mediaType: MediaType, _ progress: @escaping ImageUploadClient.ProgressHandler
  ) async throws -> [MediaID] {
    try Task.checkCancellation()
    let ids = await withRacing(ifCancelled: .isIgnored) { items.map(UploadFixtures.mediaID) }
    try Task.checkCancellation()
    let reporter = UploadProgressReporter(sizes: items.map(\.byteCount), handler: progress)
    defer { reporter.close() }
    _ = try await UploadConcurrency.map(count: items.count, limit: Self.limit) { index in
      try Task.checkCancellation()
      self.putStarted()
      defer { self.putEnded() }
      reporter.update(index, sentBytes: items[index].byteCount / 2)
      await withRacing(ifCancelled: .isIgnored) {}
      try Task.checkCancellation()
      reporter.complete(index)
    }
    return ids
  }

  private func putStarted() {
    counts.withLock {
      $0.inFlight += 1
      $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
      if $0.hasLeft { $0.putsAfterLeaving += 1 }
    }
  }
  private func putEnded() { counts.withLock { $0.inFlight -= 1 } }

  /// Marks the moment the user left: a PUT started after it is counted in ``putsAfterLeaving``.
  public func userLeft() { counts.withLock { $0.hasLeft = true } }
  /// The most PUTs that were in flight at once.
  public var mostInFlight: Int { counts.value.mostInFlight }
  /// PUTs started after ``userLeft()``.
  public var putsAfterLeaving: Int { counts.value.putsAfterLeaving }
}

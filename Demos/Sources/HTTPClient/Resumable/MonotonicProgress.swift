import Foundation

/// The progress of one upload across its requests: never goes backwards (after an interruption it holds until the
/// re-sent bytes pass it), reports whole-percent steps only, and nothing after ``close()``.
final class MonotonicProgress: Sendable {
  private struct Counters {
    var completed: Int64 = 0
    var lastPercent = -1
    var isClosed = false
  }

  private let total: Int64
  private let handler: @Sendable (UploadProgress) -> Void
  private let counters = LockedValue(Counters())

  init(total: Int64, handler: @escaping @Sendable (UploadProgress) -> Void) {
    self.total = total
    self.handler = handler
  }

  /// The upload has `bytes` of the file on the way or at the server (clamped to the file's size).
  func update(_ bytes: Int64) {
    counters.withLock { counters in
      guard !counters.isClosed else { return }
      let clamped = min(max(bytes, 0), total)
      guard clamped > counters.completed || counters.lastPercent < 0 else { return }
      counters.completed = max(clamped, counters.completed)
      let progress = UploadProgress(completedBytes: counters.completed, totalBytes: total)
      guard progress.percent > counters.lastPercent else { return }
      counters.lastPercent = progress.percent
      // Under the lock, so that no report can follow `close()`.
      handler(progress)
    }
  }

  /// Stops reporting; later updates are dropped.
  func close() {
    counters.withLock { $0.isClosed = true }
  }
}

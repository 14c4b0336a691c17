/// Adds up the bytes sent by several transfers and reports whole-percent changes to a handler, never after
/// ``close()``: the feature must not receive progress once the upload has returned.
///
/// A transfer's count can go down: when a body is re-sent (a retry, a followed redirect) its transfer restarts from
/// 0, so the total shows what the requests that count have sent.
package final class UploadProgressReporter: Sendable {
  private struct Counters {
    var sent: [Int64]
    var lastPercent = -1
    var isClosed = false
  }

  private let sizes: [Int64]
  private let total: Int64
  private let handler: @Sendable (UploadProgress) -> Void
  private let counters: LockedValue<Counters>

  /// A reporter for transfers of `sizes` bytes.
  package init(sizes: [Int64], handler: @escaping @Sendable (UploadProgress) -> Void) {
    self.sizes = sizes
    self.total = sizes.reduce(0, +)
    self.handler = handler
    self.counters = LockedValue(Counters(sent: Array(repeating: 0, count: sizes.count)))
  }

  /// Transfer `index` has sent `bytes` of its current request (clamped to its size; lower when it restarted).
  package func update(_ index: Int, sentBytes bytes: Int64) {
    guard sizes.indices.contains(index) else { return }
    counters.withLock { counters in
      guard !counters.isClosed else { return }
      let clamped = min(max(bytes, 0), sizes[index])
      guard clamped != counters.sent[index] else { return }
      counters.sent[index] = clamped
      let completed = counters.sent.reduce(0, +)
      let progress = UploadProgress(completedBytes: completed, totalBytes: total)
      guard progress.percent != counters.lastPercent else { return }
      counters.lastPercent = progress.percent
      // Called under the lock so that no report can follow `close()`.
      handler(progress)
    }
  }

  /// Transfer `index` has finished: all its bytes count as sent.
  package func complete(_ index: Int) {
    guard sizes.indices.contains(index) else { return }
    update(index, sentBytes: sizes[index])
  }

  /// Stops reporting; later updates are dropped.
  package func close() {
    counters.withLock { $0.isClosed = true }
  }
}

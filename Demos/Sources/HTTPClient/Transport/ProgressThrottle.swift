/// Coalesces byte counts from a transport into at most one report per percent of the body (and one at the end), so
/// a consumer's cost does not grow with how often the transport writes.
///
/// ```swift
/// let throttle = ProgressThrottle(total: 200_000_000) { sent in print(sent) }
/// throttle.sent(49_152)        // below 1%: nothing
/// throttle.sent(2_000_000)     // prints 2000000
/// throttle.sent(200_000_000)   // prints 200000000
/// ```
final class ProgressThrottle: Sendable {
  private let step: Int64
  private let total: Int64
  private let report: @Sendable (Int64) -> Void
  private let nextReport = LockedValue<Int64>(0)

  /// A throttle for a body of `total` bytes; `report` gets the bytes sent so far.
  init(total: Int64, report: @escaping @Sendable (Int64) -> Void) {
    self.total = max(total, 0)
    self.step = max(self.total / 100, 1)
    self.report = report
  }

  /// The transport has sent `bytes` of the body in all; reported when it reaches the next percent or the end.
  func sent(_ bytes: Int64) {
    let due = nextReport.withLock { next -> Bool in
      guard bytes >= next || (bytes >= total && next <= total) else { return false }
      next = bytes >= total ? total + 1 : (bytes / step + 1) * step
      return true
    }
    if due { report(min(bytes, total)) }
  }
}

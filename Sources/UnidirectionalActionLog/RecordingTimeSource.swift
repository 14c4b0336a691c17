import Foundation
import Unidirectional

/// Reads the store's injected clock as nanoseconds since recording started, as cheaply as the clock allows: it
/// runs for every recorded action, inside the store's lock.
final class RecordingTimeSource: @unchecked Sendable {
  private enum Kind {
    /// `ContinuousClock` on Linux: the same `CLOCK_BOOTTIME` reading, without the runtime call and the
    /// `Duration` arithmetic (measured ~24 ns instead of ~50 ns here).
    case boottime(start: Int64)
    /// Any other clock, through its own `now` and `duration(to:)`.
    case clock(@Sendable () -> Duration)
    /// An unimplemented clock (a test that did not inject one): reported once, then every time is 0.
    case unavailable
  }

  private let kind: Kind

  init(clock: any Clock<Duration>) {
    if clock is UnimplementedClock {
      _ = clock.now  // reports the issue: the test should inject a TestClock or ImmediateClock
      kind = .unavailable
      return
    }
    #if os(Linux)
      if clock is ContinuousClock {
        kind = .boottime(start: Self.boottime())
        return
      }
    #endif
    kind = .clock(Self.elapsed(on: clock))
  }

  /// Nanoseconds since recording started.
  @inline(__always)
  func now() -> Int64 {
    switch kind {
    case let .boottime(start): return Self.boottime() &- start
    case let .clock(elapsed): return Self.nanoseconds(elapsed())
    case .unavailable: return 0
    }
  }

  private static func elapsed<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  @inline(__always)
  private static func boottime() -> Int64 {
    var time = timespec()
    #if os(Linux)
      clock_gettime(CLOCK_BOOTTIME, &time)
    #endif
    return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
  }

  /// `duration` in whole nanoseconds, saturating at ±292 years.
  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    return product &+ attoseconds / 1_000_000_000
  }
}

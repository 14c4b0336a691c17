/// A clock whose sleeps return at once, moving `now` to the deadline: for tests and previews that should not
/// wait but don't care about the order of timers.
///
/// ```swift
/// let store = TestStore(initialState: Timer.State()) { Timer() } withDependencies: {
///   $0.clock = ImmediateClock()
/// }
/// ```
public final class ImmediateClock: Clock, @unchecked Sendable {
  private let lock = Lock()
  private var _now: TestClock.Instant

  /// A clock at `now`.
  public init(now: TestClock.Instant = .init()) {
    self._now = now
  }

  public var now: TestClock.Instant { lock.withLock { _now } }
  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: TestClock.Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    // A sleep suspends, as swift-clocks' immediate clock's does: a timer loop on this clock lets other work (the
    // actions it sends, a cancellation) in between its ticks instead of spinning.
    await Task.yield()
    try Task.checkCancellation()
    lock.withLock { _now = max(_now, deadline) }
  }
}

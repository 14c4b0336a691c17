extension Clock where Duration == Swift.Duration {
  /// Ticks every `interval` on this clock, the first tick one interval from now, until the task is cancelled (then
  /// the sequence ends). Deadlines do not drift: each is one interval after the previous one; ticks a slow consumer
  /// missed are skipped, not delivered late in a burst.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await _ in clock.timer(interval: .seconds(1)) {
  ///     send(.tick)
  ///   }
  /// }
  /// ```
  public func timer(interval: Duration, tolerance: Duration? = nil) -> ClockTimer {
    ClockTimer(clock: self, interval: interval, tolerance: tolerance)
  }
}

/// The ticks of `Clock.timer(interval:tolerance:)`: `Void` elements, one per interval, until cancelled.
public struct ClockTimer: AsyncSequence, Sendable {
  public typealias Element = Void

  let clock: any Clock<Duration>
  let interval: Duration
  let tolerance: Duration?

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(tick: Self.ticker(clock, interval: interval, tolerance: tolerance))
  }

  /// Waits for the next tick; returns false once cancelled.
  private static func ticker<C: Clock<Duration>>(
    _ clock: C, interval: Duration, tolerance: Duration?
  ) -> @Sendable () async -> Bool {
    let last = LockIsolated<C.Instant?>(nil)
    return {
      let now = clock.now
      let previous = last.value ?? now
      var next = previous.advanced(by: interval)
      if next < now {
        // Skip the ticks that were missed; keep the cadence.
        let missed = (next.duration(to: now) / interval).rounded(.up)
        next = previous.advanced(by: interval * Int(missed))
      }
      do {
        try await clock.sleep(until: next, tolerance: tolerance)
      } catch {
        return false
      }
      last.setValue(next)
      return true
    }
  }

  /// Waits for each tick.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let tick: @Sendable () async -> Bool
    var isFinished = false

    public mutating func next() async -> Void? {
      guard !isFinished, await tick() else {
        isFinished = true
        return nil
      }
      return ()
    }
  }
}

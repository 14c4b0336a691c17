private enum ClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static let testValue: any Clock<Duration> = UnimplementedClock(name: "\\.clock")
}

private enum ContinuousClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static let testValue: any Clock<Duration> = UnimplementedClock(name: "\\.continuousClock")
}

private enum SuspendingClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = SuspendingClock()
  static let testValue: any Clock<Duration> = UnimplementedClock(name: "\\.suspendingClock")
}

extension DependencyValues {
  /// The clock effects sleep on: `ContinuousClock` live and in previews; in tests an unimplemented clock that fails
  /// the test until overridden with a ``TestClock`` or ``ImmediateClock``.
  public var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }

  /// TCA's name for a continuous clock: `ContinuousClock` live; in tests an unimplemented clock that fails the test
  /// until overridden. A separate dependency from ``clock``: override the one the feature reads.
  ///
  /// ```swift
  /// @Dependency(\.continuousClock) var clock
  /// for await _ in clock.timer(interval: .seconds(1)) { send(.tick) }
  /// ```
  public var continuousClock: any Clock<Duration> {
    get { self[ContinuousClockKey.self] }
    set { self[ContinuousClockKey.self] = newValue }
  }

  /// A clock that does not advance while the machine sleeps: `SuspendingClock` live; in tests an unimplemented
  /// clock that fails the test until overridden.
  public var suspendingClock: any Clock<Duration> {
    get { self[SuspendingClockKey.self] }
    set { self[SuspendingClockKey.self] = newValue }
  }
}

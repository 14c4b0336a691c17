private enum ClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static let testValue: any Clock<Duration> = UnimplementedClock(name: "\\.clock")
}

extension DependencyValues {
  /// The clock effects sleep on: `ContinuousClock` live and in previews; in tests an unimplemented clock that fails
  /// the test until overridden with a ``TestClock`` or ``ImmediateClock``.
  public var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }
}

/// A clock that reports a runtime issue (a test failure under test) whenever it is used, then behaves like an
/// ``ImmediateClock``: the test value of `\.clock`, so a test that forgets to inject a clock fails instead of waiting.
public final class UnimplementedClock: Clock, @unchecked Sendable {
  private let name: String
  private let base = ImmediateClock()

  /// A clock that names `name` in its failure message.
  public init(name: String = "clock") {
    self.name = name
  }

  public var now: TestClock.Instant {
    reportIssue("Unimplemented clock @Dependency(\(name)) was used: override it with a TestClock or ImmediateClock.")
    return base.now
  }

  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: TestClock.Instant, tolerance: Duration? = nil) async throws {
    reportIssue("Unimplemented clock @Dependency(\(name)) was used: override it with a TestClock or ImmediateClock.")
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}

import Foundation

private enum TimeZoneKey: DependencyKey {
  static var liveValue: TimeZone { .autoupdatingCurrent }
  static var testValue: TimeZone {
    reportIssue(
      """
      @Dependency(\\.timeZone) was used without an override. Set it in the test, e.g. \
      `$0.timeZone = TimeZone(secondsFromGMT: 0)!`.
      """)
    return .autoupdatingCurrent
  }
}

extension DependencyValues {
  /// The time zone features show times in: the user's (`TimeZone.autoupdatingCurrent`) live and in previews; in
  /// tests it fails the test until overridden.
  ///
  /// ```swift
  /// @Dependency(\.timeZone) var timeZone
  /// ```
  public var timeZone: TimeZone {
    get { self[TimeZoneKey.self] }
    set { self[TimeZoneKey.self] = newValue }
  }
}

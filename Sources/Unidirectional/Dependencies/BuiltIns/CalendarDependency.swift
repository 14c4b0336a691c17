import Foundation

private enum CalendarKey: DependencyKey {
  static var liveValue: Calendar { .autoupdatingCurrent }
  static var testValue: Calendar {
    reportIssue(
      """
      @Dependency(\\.calendar) was used without an override. Set it in the test, e.g. \
      `$0.calendar = Calendar(identifier: .gregorian)` with a fixed time zone.
      """)
    return .autoupdatingCurrent
  }
}

extension DependencyValues {
  /// The calendar features compute dates with: the user's (`Calendar.autoupdatingCurrent`) live and in previews;
  /// in tests it fails the test until overridden (a test must not depend on the machine's calendar).
  ///
  /// ```swift
  /// @Dependency(\.calendar) var calendar
  /// let startOfDay = calendar.startOfDay(for: date.now)
  /// ```
  public var calendar: Calendar {
    get { self[CalendarKey.self] }
    set { self[CalendarKey.self] = newValue }
  }
}

import Foundation

private enum LocaleKey: DependencyKey {
  static var liveValue: Locale { .autoupdatingCurrent }
  static var testValue: Locale {
    reportIssue(
      """
      @Dependency(\\.locale) was used without an override. Set it in the test, e.g. \
      `$0.locale = Locale(identifier: "en_US")`.
      """)
    return .autoupdatingCurrent
  }
}

extension DependencyValues {
  /// The locale features format text with: the user's (`Locale.autoupdatingCurrent`) live and in previews; in tests
  /// it fails the test until overridden.
  ///
  /// ```swift
  /// @Dependency(\.locale) var locale
  /// let text = count.formatted(.number.locale(locale))
  /// ```
  public var locale: Locale {
    get { self[LocaleKey.self] }
    set { self[LocaleKey.self] = newValue }
  }
}

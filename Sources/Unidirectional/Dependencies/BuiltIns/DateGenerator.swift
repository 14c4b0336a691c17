import Foundation

/// Tells the current date; inject it so tests control "now".
///
/// ```swift
/// @Dependency(\.date) var date
/// state.createdAt = date.now
/// ```
public struct DateGenerator: Sendable {
  private var generate: @Sendable () -> Date

  /// A generator that calls `generate` for every date.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date.
  public func callAsFunction() -> Date { generate() }

  /// The current date. Setting it makes the generator constant: `store.dependencies.date.now = someDate`.
  public var now: Date {
    get { generate() }
    set { generate = { newValue } }
  }

  /// Always `date`.
  public static func constant(_ date: Date) -> Self { Self { date } }

  /// `dates`, in order: the dates a recorded session read (a test written from an action log injects them). Asking
  /// for more reports a test failure naming how many there were, then gives the last one again.
  ///
  /// ```swift
  /// $0.date = .sequence([Date(timeIntervalSinceReferenceDate: 786_000_000), Date(timeIntervalSinceReferenceDate: 786_000_001)])
  /// ```
  public static func sequence(_ dates: [Date]) -> Self {
    let sequence = ValueSequence(dates, use: "@Dependency(\\.date) was read")
    return Self { sequence.next { _ in dates.last ?? Date(timeIntervalSinceReferenceDate: 0) } }
  }

  /// Reports a test failure when called, then returns the reference date (2001-01-01).
  public static let unimplemented = DateGenerator {
    reportIssue("@Dependency(\\.date) was used without an override. Set it, e.g. to .constant(…), in the test.")
    return Date(timeIntervalSinceReferenceDate: 0)
  }
}

private enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator { Date() }
  static let testValue = DateGenerator.unimplemented
}

extension DependencyValues {
  /// Tells the current date: the system's live and in previews; unimplemented in tests until overridden.
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}

/// How strictly a `TestStore` checks a test.
///
/// ```swift
/// store.exhaustivity = .off                                   // assert only what matters for this test
/// store.exhaustivity = .off(showSkippedAssertions: true)      // …and list what was skipped, without failing
/// ```
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change must be asserted, every received action received, every effect finished.
  case on
  /// Only the asserted fields are checked; received actions not asserted and effects still running are allowed.
  /// With `showSkippedAssertions`, what the test skipped is reported as informational notes (known issues in
  /// Swift Testing), never as failures.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, skipping silently.
  public static let off = Self.off(showSkippedAssertions: false)
}

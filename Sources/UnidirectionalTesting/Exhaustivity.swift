/// How strictly a `TestStore` checks a test.
///
/// ```swift
/// store.exhaustivity = .off   // assert only what matters for this test
/// ```
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change must be asserted, every received action received, every effect finished.
  case on
  /// Only the asserted fields are checked; received actions not asserted and effects still running are allowed.
  case off
}

import Unidirectional

/// How a `TestStore` decides that the state a test expects is the state the feature made: `==` for an `Equatable`
/// state, and for any other state their structural dumps — the library's `customDump`, as TCA 2.0 compares debug
/// snapshots — so a state holding a closure, a reference or any value that is not `Equatable` is tested exhaustively
/// too, with the same diff.
///
/// ```swift
/// StateComparison<Counter.State>.equatable.difference(expected, actual, asserting: tracker)  // nil: they match
/// ```
struct StateComparison<State> {
  /// `==`, for an `Equatable` state; nil to compare dumps.
  private let isEqual: ((State, State) -> Bool)?

  fileprivate init(isEqual: ((State, State) -> Bool)?) {
    self.isEqual = isEqual
  }

  /// Compares the dumps: two states match when they dump alike (a closure dumps as `(Function)`, a class instance
  /// as its fields at the time of the comparison).
  static var dumps: Self { Self(isEqual: nil) }

  /// How `actual` differs from `expected`, as a test store reports it, or nil when they match. Shared values are
  /// read as an assertion of `tracker`: the expected side as the test expects them, the actual side as the asserted
  /// step left them.
  func difference(_ expected: State, _ actual: State, asserting tracker: SharedChangeTracker) -> String? {
    guard let isEqual else { return diff(expected, actual, asserting: tracker) }
    if tracker.asserting({ isEqual(expected, actual) }) { return nil }
    return diff(expected, actual, asserting: tracker) ?? "  \(customDump(actual))"
  }

  /// Whether `lhs` and `rhs` match, shared values read live.
  func isSame(_ lhs: State, _ rhs: State) -> Bool {
    guard let isEqual else { return diff(lhs, rhs) == nil }
    return isEqual(lhs, rhs)
  }
}

extension StateComparison where State: Equatable {
  /// Compares with `==`: the dumps are made only to show a difference.
  static var equatable: Self { Self(isEqual: { $0 == $1 }) }
}

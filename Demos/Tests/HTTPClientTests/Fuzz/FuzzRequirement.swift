/// Ends the process with `message` unless `condition` holds: a property a fuzz target's body checks on every input.
/// Not `precondition`: an optimized build (as `Scripts/fuzz` builds) drops its message, and a crash should say what
/// broke.
///
/// ```swift
/// fuzzRequire(page.steps.count <= count, "\(page.steps.count) rows for count \(count)")
/// ```
func fuzzRequire(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError(message()) }
}

/// Ends the process with `message`: an outcome a fuzz target's body never accepts (an untyped error, a refusal of a
/// valid input).
func fuzzFailure(_ message: @autoclosure () -> String) -> Never {
  fatalError(message())
}

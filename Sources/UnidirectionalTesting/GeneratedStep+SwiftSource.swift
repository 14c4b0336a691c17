import Unidirectional

// A generated sequence written as the Swift of a regression test. The seam for a writer of whole test files (issue
// 47 §2's log-to-test writer): it takes the steps and writes them the same way.
extension GeneratedStep {
  /// The step as a statement of a test: `await store.send(.delete(id: 1))`, `await clock.advance(by: .seconds(1))`.
  var swiftSource: String {
    switch self {
    case let .send(action): "await store.send(\(Self.swiftSource(of: action)))"
    case let .advance(duration): "await clock.advance(by: \(Self.swiftSource(of: duration)))"
    }
  }

  /// `.delete(id: 1)`: the action's one-line dump, its type's name left to inference.
  static func swiftSource(of action: Action) -> String {
    let text = describe(action)
    let prefix = typeName(Action.self) + "."
    return text.hasPrefix(prefix) ? "." + text.dropFirst(prefix.count) : text
  }

  /// `.seconds(2)`, `.milliseconds(300)`, `.nanoseconds(5)`.
  static func swiftSource(of duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return ".seconds(\(seconds))" }
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    if nanoseconds % 1_000_000 == 0 { return ".milliseconds(\(nanoseconds / 1_000_000))" }
    if nanoseconds % 1_000 == 0 { return ".microseconds(\(nanoseconds / 1_000))" }
    return ".nanoseconds(\(nanoseconds))"
  }
}

/// The body of a regression test that replays `steps`: the sends and clock advances, on a store made as the
/// exploration made it, non-exhaustive as it ran.
func regressionTestSource<Action>(_ steps: [GeneratedStep<Action>], schedule: String?) -> String {
  var lines = ["let store = …  // as the exploration's store closure makes it"]
  if steps.contains(where: { if case .advance = $0 { true } else { false } }) {
    lines.append("let clock = …  // the TestClock in its dependencies")
  }
  lines.append("store.exhaustivity = .off")
  lines += steps.map(\.swiftSource)
  lines.append("await store.skipReceivedActions(strict: false)")
  lines.append("// … the check that failed, on store.state")
  guard let schedule else { return lines.joined(separator: "\n") }
  let indented = lines.map { "  " + $0 }.joined(separator: "\n")
  return "await exploreInterleavings(replaying: \"\(schedule)\") {\n\(indented)\n}"
}

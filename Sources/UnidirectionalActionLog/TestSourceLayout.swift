import Foundation

/// How ``ActionLogTestWriter`` lays out a test file: the imports, the store with its dependencies, the steps, the
/// recorded initial state and the one helper the test uses, indented and wrapped as a person writes them.
///
/// ```swift
/// TestSourceLayout.assertion(head: "await store.send(.increment)", statements: [SourceExpression("$0.count = 1")])
/// // ["await store.send(.increment) { $0.count = 1 }"]
/// ```
enum TestSourceLayout {
  /// Lines longer than this are wrapped.
  static let width = 110

  /// `head` with its assertion closure: inline when it is one short statement, else a block.
  static func assertion(head: String, statements: [SourceExpression]) -> [String] {
    let lines = statements.map { ($0.throwing && !$0.text.hasPrefix("try ") ? "try " : "") + $0.text }
    let headLines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard !lines.isEmpty else { return headLines }
    if lines.count == 1, !lines[0].contains("\n"), headLines.count == 1 {
      let inline = "\(head) { \(lines[0]) }"
      if inline.count + 2 <= width { return [inline] }
    }
    var result = Array(headLines.dropLast())
    result.append(headLines[headLines.count - 1] + " {")
    for line in lines.flatMap({ $0.split(separator: "\n", omittingEmptySubsequences: false) }) {
      result.append("  " + line)
    }
    result.append("}")
    return result
  }

  /// `head[a, b]tail` on one line if it fits, else one item per line.
  static func list(head: String, items: [String], tail: String) -> [String] {
    let inline = head + "[" + items.joined(separator: ", ") + "]" + tail
    if inline.count + 4 <= width { return [inline] }
    return [head + "["] + items.map { "  " + $0 + "," } + ["]" + tail]
  }

  /// The whole file.
  static func file(
    configuration: ActionLogTestWriter.Configuration, types: (state: String, action: String), modules: Set<String>,
    dependencies: [String], body: [String], initialState: (literal: String, isLocal: Bool)
  ) -> String {
    let always: Set<String> = ["Foundation", "Testing", "Unidirectional", "UnidirectionalTesting"]
    let omitted: Set<String> = ["Swift", "_Concurrency", configuration.module ?? "Swift"]
    let imports = always.union(configuration.imports).union(modules.subtracting(omitted)).sorted()
    // Written, not typed: its long lines (recorded JSON) stay as they are.
    var lines = ["// swift-format-ignore-file"] + configuration.header.map { "// " + $0 } + [""]
    lines += imports.map { "import \($0)" }
    let name = configuration.testName
    var test: [String] = configuration.setUp
    test.append("let clock = TestClock()")
    let dependencyLines =
      configuration.clocks.map { "$0.\($0) = clock" } + dependencies + configuration.dependencies
    if configuration.stepsTakeAnyReducer {
      lines += [
        "", "@Test func \(name)() async throws {", "  try await \(name)Steps(reducer: \(configuration.reducer))", "}",
        "",
        "/// The recorded steps, run against `reducer`: the reducer that recorded them in the test above, a changed one",
        "/// in other tests (which then fail at the first step that differs).",
        "func \(name)Steps(",
        "  reducer: some Reducer<\(types.state), \(types.action)>, reporter: TestReporter = .automatic",
        ") async throws {",
      ]
      test += initialStateLines(initialState, reducer: "reducer")
      test += [
        "let store = TestStore(",
        "  initialState: initialState, reducer: { reducer },",
        "  withDependencies: {",
      ]
      test += dependencyLines.map { "    " + $0 }
      test += ["  }, reporter: reporter)"]
    } else {
      lines += ["", "@Test func \(name)() async throws {"]
      test += initialStateLines(initialState, reducer: configuration.reducer)
      test.append("let store = TestStore(initialState: initialState) {")
      test.append("  \(configuration.reducer)")
      test.append("} withDependencies: {")
      test += dependencyLines.map { "  " + $0 }
      test.append("}")
    }
    if let timeout = configuration.timeout {
      test.append("store.timeout = \(SwiftSourceRenderer.durationLiteral(timeout))")
    }
    test.append("")
    test += body
    lines += test.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }
      .map { $0.isEmpty ? "" : "  " + $0 }
    lines += ["}", ""]
    if initialState.isLocal {
      lines += [
        "/// The state the recording started from, decoded as `reducer`'s.",
        "private func recordedInitialState<R: Reducer>(of reducer: R, json: String) throws -> R.State",
        "where R.State: Decodable {",
        "  try fromJSON(json)",
        "}",
        "",
      ]
    } else {
      lines += [
        "/// The state the recording started from.",
        "private func recordedInitialState<R: Reducer>(of reducer: R) throws -> R.State where R.State: Decodable {",
        "  try fromJSON(",
        "    \(initialState.literal)",
        "  )",
        "}",
        "",
      ]
    }
    lines += [
      "/// A value written as its recorded JSON: its type's initializers are not known to the writer.",
      "private func fromJSON<T: Decodable>(_ json: String) throws -> T {",
      "  try JSONDecoder().decode(T.self, from: Data(json.utf8))",
      "}",
      "",
    ]
    return lines.joined(separator: "\n")
  }

  /// `let initialState = …`: in the test itself when the recorded state names what the test makes (a folder).
  private static func initialStateLines(_ initialState: (literal: String, isLocal: Bool), reducer: String) -> [String] {
    guard initialState.isLocal else { return ["let initialState = try recordedInitialState(of: \(reducer))"] }
    return ["let initialState = try recordedInitialState(", "  of: \(reducer),", "  json: \(initialState.literal))"]
  }

  /// Canonical JSON laid out one member per line, two spaces per level (empty objects and arrays stay `{}`, `[]`).
  static func prettyJSON(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    var depth = 0
    var inString = false
    var escaped = false
    var index = 0
    func newline() {
      output.append(UInt8(ascii: "\n"))
      output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }
    while index < bytes.count {
      let byte = bytes[index]
      defer { index += 1 }
      if inString {
        output.append(byte)
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
        output.append(byte)
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        output.append(byte)
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if next == UInt8(ascii: "}") || next == UInt8(ascii: "]") {
          output.append(next)
          index += 1
        } else {
          depth += 1
          newline()
        }
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        newline()
        output.append(byte)
      case UInt8(ascii: ","):
        output.append(byte)
        newline()
      case UInt8(ascii: ":"):
        output.append(contentsOf: [byte, UInt8(ascii: " ")])
      default:
        output.append(byte)
      }
    }
    return String(decoding: output, as: UTF8.self)
  }
}

import Foundation
import Unidirectional

/// Writes a Swift Testing test from a recorded session: a `TestStore` from the initial state, `send` for each action
/// from outside, `receive` for each action an effect sent, the state changes of each step as the assertion of that
/// step (only what changed), `TestClock.advance` for the time between steps, and the recorded UUIDs, dates and random
/// numbers injected.
///
/// ```swift
/// let source = try ActionLogTestWriter.source(
///   fromLog: logURL, reducer: Counter(),
///   configuration: .init(testName: "counterSession", imports: ["Counter"], reducer: "Counter()"))
/// try source.write(to: testsFolder.appendingPathComponent("CounterSessionTests.swift"), atomically: true, encoding: .utf8)
/// ```
///
/// The test compiles without edits in a test target that can import the feature's modules, and passes against the
/// reducer that recorded the log; against a changed reducer it fails at the first step that differs, with the
/// `TestStore`'s usual diff. Values are written as literals where Swift can spell them (strings, numbers, UUIDs,
/// dates, URLs, enum cases and collections of them); a value it cannot spell (a struct: its initializers are not
/// known) is its recorded JSON, decoded in the test — never left out. The initial state is always its JSON.
///
/// Any sequence of steps can be written, not only a log's — a generated action sequence that failed, say — with
/// ``source(initialState:steps:configuration:)``.
public enum ActionLogTestWriter {
  /// What the test is called and what it needs besides the steps.
  ///
  /// ```swift
  /// var configuration = ActionLogTestWriter.Configuration(testName: "scan", imports: ["Scan"], reducer: "ScanFeature()")
  /// configuration.dependencies = ["ScanDemo.prepare(&$0)"]
  /// configuration.substitutions = [recordedFolder.path: "folder.path"]
  /// configuration.setUp = ["let folder = try ScanDemo.folder()", "defer { ScanDemo.remove(folder) }"]
  /// ```
  public struct Configuration: Sendable {
    /// The test function's name (a Swift identifier).
    public var testName: String
    /// The modules to import besides `Foundation`, `Testing`, `Unidirectional` and `UnidirectionalTesting` (and
    /// the modules of the types the steps' values are written with, which are added).
    public var imports: [String]
    /// The reducer, as a Swift expression: `"Counter()"`.
    public var reducer: String
    /// Lines run at the start of the test (a working folder to make, a `defer` that removes it).
    public var setUp: [String] = []
    /// Lines inside the store's `withDependencies` after the recorded values: the clients the feature's effects
    /// use (`$0.apiClient = .mock`).
    public var dependencies: [String] = []
    /// The clock dependencies set to the test's `TestClock`.
    public var clocks: [String] = ["clock"]
    /// Recorded text to write as an interpolation of a Swift `String` expression (a machine's folder in the recorded
    /// paths → `folder.path`, made by a ``setUp`` line).
    public var substitutions: [String: String] = [:]
    /// The step the times of the steps are rounded up to before the clock is advanced between them (a real clock's
    /// times are a little after the sleeps that woke them): `.zero` advances by the exact recorded times.
    public var timeResolution: Duration = .milliseconds(1)
    /// How long a `receive` waits for effects running outside the test's runtime (`TestStore.timeout`); nil keeps
    /// the `TestStore`'s.
    public var timeout: Duration?
    /// Whether the test ends with `store.finish()` (every effect must have ended) or skips what is still running.
    public var finishes = true
    /// Comment lines at the top of the file (how the file was made, how to make it again).
    public var header: [String] = []
    /// The module the test is compiled in: the types of its own it writes need no import.
    public var module: String?
    /// Whether the steps are a function of the reducer, `<testName>Steps(reducer:reporter:)`, which the test calls
    /// with ``reducer``: other tests can then run the recorded steps against a changed reducer and see where they
    /// fail.
    public var stepsTakeAnyReducer = false

    /// How values of some types are written, by type (see ``write(_:as:)``).
    var spellings: [ObjectIdentifier: Spelling] = [:]

    /// A configuration for a test named `testName` of `reducer`, importing `imports`.
    public init(testName: String, imports: [String], reducer: String) {
      self.testName = testName
      self.imports = imports
      self.reducer = reducer
    }

    /// Writes values of `type` as a call of its initializer that takes each stored property, in their order and with
    /// their names — `CaptureShot(number: 1, fileURL: URL(fileURLWithPath: "…"), byteCount: 20_876)` — for a type
    /// that has one (the writer cannot see initializers: it writes other structs as their JSON).
    public mutating func writeWithInitializer<T>(_ type: T.Type) {
      let name = typeName(type)
      spellings[ObjectIdentifier(type)] = { value, write in
        let arguments = Mirror(reflecting: value).children.map { child in
          (child.label.map { $0 + ": " } ?? "") + write(child.value)
        }
        return "\(name)(\(arguments.joined(separator: ", ")))"
      }
    }

    /// Writes values of `type` with `write`: it returns a Swift expression for a value, writing the values it holds
    /// with the function it is given.
    ///
    /// ```swift
    /// configuration.write(Progress.self) { progress, write in
    ///   progress == .starting ? ".starting" : "Progress(done: \(write(progress.done)), of: \(write(progress.total)))"
    /// }
    /// ```
    public mutating func write<T>(
      _ type: T.Type, as write: @escaping @Sendable (_ value: T, _ write: (Any) -> String) -> String
    ) {
      spellings[ObjectIdentifier(type)] = { value, writeValue in
        guard let value = value as? T else { return "" }
        return write(value, writeValue)
      }
    }
  }

  /// Writes a value as a Swift expression, given a function that writes the values it holds.
  typealias Spelling = @Sendable (Any, (Any) -> String) -> String

  /// One step of a session: an action sent from outside or received from an effect, the state after it, when it
  /// happened and what it read.
  ///
  /// ```swift
  /// ActionLogTestWriter.Step(origin: .sent, action: .add("Milk"), state: afterAdding, time: .seconds(1))
  /// ```
  public struct Step<State, Action> {
    /// Sent (a `send` in the test) or received from an effect (a `receive`).
    public var origin: ActionOrigin
    /// The action.
    public var action: Action
    /// The state after the action.
    public var state: State
    /// When it happened, since the session started, on the store's clock.
    public var time: Duration
    /// What the reducer read from non-deterministic dependencies at this step.
    public var reads: ActionLogReads?
    /// What effects read from them since the step before.
    public var effectReads: ActionLogReads?

    /// A step.
    public init(
      origin: ActionOrigin, action: Action, state: State, time: Duration = .zero, reads: ActionLogReads? = nil,
      effectReads: ActionLogReads? = nil
    ) {
      self.origin = origin
      self.action = action
      self.state = state
      self.time = time
      self.reads = reads
      self.effectReads = effectReads
    }
  }

  /// The test of the log at `url`, replayed through `reducer` (the reducer that recorded it: the log must replay
  /// without a divergence, so that the test asserts what happened when it was recorded).
  public static func source<R: Reducer>(
    fromLog url: URL, reducer: R, configuration: Configuration
  ) throws(ActionLogTestWriterError) -> String where R.State: Codable, R.Action: Codable {
    var steps: [Step<R.State, R.Action>] = []
    let replay: ActionLogReplay<R>
    do {
      replay = try ActionLogReplay(contentsOf: url, reducer: reducer)
      while let step = try replay.next() {
        steps.append(
          Step(
            origin: step.origin, action: step.action, state: step.state, time: step.time, reads: step.reads,
            effectReads: step.effectReads))
      }
    } catch {
      throw .log(error)
    }
    if let divergence = replay.firstDivergence { throw .diverged(divergence.description) }
    var configuration = configuration
    if configuration.header.isEmpty {
      configuration.header = [
        "A test written from the action log \(url.lastPathComponent) (\(replay.header.feature), \(steps.count) steps) "
          + "by ActionLogTestWriter."
      ]
    }
    return try source(initialState: replay.initialState, steps: steps, configuration: configuration)
  }

  /// The test of `steps` from `initialState`.
  public static func source<State, Action>(
    initialState: State, steps: [Step<State, Action>], configuration: Configuration
  ) throws(ActionLogTestWriterError) -> String {
    guard let initialJSON = SwiftSourceRenderer.canonicalJSON(initialState) else {
      throw .unencodable("the initial state (\(typeName(State.self))) does not encode as JSON")
    }
    var renderer = SwiftSourceRenderer(
      substitutions: configuration.substitutions, spellings: configuration.spellings)
    var body: [String] = []
    var before: Any = initialState
    var clockTime = Duration.zero
    for (index, step) in steps.enumerated() {
      let time = rounded(step.time, to: configuration.timeResolution)
      if time > clockTime {
        body.append("await clock.advance(by: \(SwiftSourceRenderer.durationLiteral(time - clockTime)))")
        clockTime = time
      }
      guard let action = renderer.expression(for: step.action) else {
        throw .unencodable("the action of step \(index + 1) (\(typeName(Action.self))) does not encode as JSON")
      }
      let call = step.origin == .sent ? "send" : "receive"
      let changes = StateChangeStatements.statements(from: before, to: step.state, renderer: &renderer)
      // The assertion closure may throw without `send` or `receive` throwing: only the action needs a `try`.
      let head = "\(action.throwing ? "try " : "")await store.\(call)(\(action.text))"
      body += TestSourceLayout.assertion(head: head, statements: changes)
      before = step.state
    }
    body.append(configuration.finishes ? "await store.finish()" : "await store.skipInFlightEffects()")
    return TestSourceLayout.file(
      configuration: configuration, types: (typeName(State.self), typeName(Action.self)), modules: renderer.modules,
      dependencies: dependencyLines(steps, &renderer), body: body,
      initialState: initialStateLiteral(initialJSON, renderer))
  }

  /// The initial state's JSON as a literal, and whether it must be in the test because it interpolates what the
  /// test makes (a substitution).
  private static func initialStateLiteral(
    _ json: [UInt8], _ renderer: SwiftSourceRenderer
  ) -> (literal: String, isLocal: Bool) {
    let text = TestSourceLayout.prettyJSON(json)
    let plain = SwiftSourceRenderer().rawLiteral(text, indent: "    ")
    let substituted = renderer.rawLiteral(text, indent: "    ")
    guard substituted != plain else { return (plain, false) }
    return (renderer.rawLiteral(text, indent: "    "), true)
  }

  /// The recorded values injected: each kind in the order the session read it (effects' reads before the step's).
  private static func dependencyLines<State, Action>(
    _ steps: [Step<State, Action>], _ renderer: inout SwiftSourceRenderer
  ) -> [String] {
    var reads = ActionLogReads()
    for step in steps {
      for part in [step.effectReads, step.reads].compactMap({ $0 }) {
        reads.uuids += part.uuids
        reads.dates += part.dates
        reads.randomNumbers += part.randomNumbers
      }
    }
    var lines: [String] = []
    func sequence(_ dependency: String, _ values: [Any]) {
      guard !values.isEmpty else { return }
      let items = values.compactMap { renderer.literal(for: $0)?.text }
      lines += TestSourceLayout.list(head: "$0.\(dependency) = .sequence(", items: items, tail: ")")
    }
    sequence("uuid", reads.uuids)
    sequence("date", reads.dates)
    sequence("withRandomNumberGenerator", reads.randomNumbers)
    return lines
  }

  /// `time` rounded up to a multiple of `resolution` (itself when `resolution` is zero).
  private static func rounded(_ time: Duration, to resolution: Duration) -> Duration {
    let nanoseconds = RecordingTimeSource.nanoseconds(time)
    let step = RecordingTimeSource.nanoseconds(resolution)
    guard step > 0, nanoseconds > 0 else { return .nanoseconds(max(nanoseconds, 0)) }
    return .nanoseconds((nanoseconds + step - 1) / step * step)
  }
}

/// Why ``ActionLogTestWriter`` could not write a test.
///
/// ```swift
/// do { … } catch { print(error) }   // "the log diverges from the reducer: step 3 (line 4): …"
/// ```
public enum ActionLogTestWriterError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The log could not be read.
  case log(ActionLogError)
  /// The log does not replay through the reducer without a divergence: a test of it would assert what the
  /// reducer does now, not what was recorded.
  case diverged(String)
  /// A state or an action does not encode as JSON.
  case unencodable(String)

  public var description: String {
    switch self {
    case let .log(error): "cannot read the log: \(error)"
    case let .diverged(divergence):
      "the log diverges from the reducer (write the test with the reducer that recorded it): \(divergence)"
    case let .unencodable(reason): reason
    }
  }
}

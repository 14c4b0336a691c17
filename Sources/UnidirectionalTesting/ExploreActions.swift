import Unidirectional

/// Runs generated sequences of user actions against a feature — each on a fresh `TestStore`, each step chosen by
/// `generator` from the state the store is in — and fails the test at the first sequence that breaks a check,
/// shrunk to the shortest, simplest sequence that still fails and printed as the `send`s of a regression test and a
/// string that replays it.
///
/// What counts as broken: `check`, run after every step (report with `#expect`, or throw); invariants the store
/// checks with `checkEveryState`; every failure of the test store itself (a runtime issue, an effect's issue). The
/// store runs non-exhaustively: a step sends its action (or moves the store's `TestClock`), then the actions its
/// effects feed back are taken as they come.
///
/// ```swift
/// @Test func undoBringsBackWhatWasDeleted() async {
///   await exploreActions(.random(seed: 1, sequences: 500, length: 12), generating: todoActions) {
///     TestStore(initialState: Todos.State()) { Todos() }
///   } check: { state, _ in
///     #expect(state.todos.count <= state.added)
///   }
/// }
/// ```
///
/// Pass the printed string as `replaying:` to run exactly that sequence again. With `interleavings`, each sequence
/// that passes also runs under the schedules of its effects that ``exploreInterleavings(_:replaying:reporter:fileID:filePath:line:column:_:)``
/// explores with that strategy (keep it small: every sequence multiplies it). Its steps then run where the explorer
/// runs a scenario, which today is off the test's actor: in an Xcode 26 target, closures that touch main-actor state
/// (a generator reading the state's properties) work without `interleavings` only.
///
/// Report from `check` with `#expect` in Swift Testing; in XCTest, throw (an `XCTAssert` there fails the test at once,
/// before the sequence is shrunk).
///
/// - Parameters:
///   - sequences: How many sequences, how long, from which seed.
///   - generator: The steps a sequence may take next, given the store's state.
///   - pin: A string this function printed: runs that one sequence only.
///   - interleavings: A strategy to also run each sequence under, or nil.
///   - reporter: Where the failure goes; the running test by default.
///   - fileID: The file the failure is reported in.
///   - filePath: The same file's full path, as XCTest names it.
///   - line: The line the failure is reported at.
///   - column: The column the failure is reported at.
///   - makeStore: Makes the store a sequence runs on (and its dependencies: a `TestClock` for `advance` steps).
///   - check: What must hold after every step, given the store's state and the step just taken.
/// - Returns: What ran and what failed.
@discardableResult
nonisolated(nonsending) public func exploreActions<State, Action: Sendable>(
  _ sequences: ActionSequences = .random(),
  generating generator: ActionGenerator<State, Action>,
  replaying pin: String? = nil,
  interleavings: ExplorationStrategy? = nil,
  reporter: TestReporter = .automatic,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  store makeStore: @escaping () -> TestStore<State, Action>,
  check: @escaping (_ state: State, _ step: GeneratedStep<Action>) throws -> Void = { _, _ in }
) async -> ActionExplorationReport {
  let explorer = ActionSequenceExplorer(
    generator: generator, makeStore: makeStore, model: (), update: { _, _ in },
    check: { state, _, step in try check(state, step) })
  return await explorer.report(
    sequences, replaying: pin, interleavings: interleavings, reporter: reporter,
    at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// ``exploreActions(_:generating:replaying:interleavings:reporter:fileID:filePath:line:column:store:check:)`` against
/// a model: a small value the test updates alongside the store with each step, and checks the state against.
///
/// ```swift
/// await exploreActions(generating: counterActions, model: 0) {
///   TestStore(initialState: Counter.State()) { Counter() }
/// } update: { count, step in
///   if case .send(.incrementTapped) = step { count += 1 }
/// } check: { state, count in
///   #expect(state.count == count)
/// }
/// ```
///
/// - Parameters:
///   - sequences: How many sequences, how long, from which seed.
///   - generator: The steps a sequence may take next, given the store's state.
///   - model: The model's value before the first step.
///   - pin: A string this function printed: runs that one sequence only.
///   - interleavings: A strategy to also run each sequence under, or nil.
///   - reporter: Where the failure goes; the running test by default.
///   - fileID: The file the failure is reported in.
///   - filePath: The same file's full path, as XCTest names it.
///   - line: The line the failure is reported at.
///   - column: The column the failure is reported at.
///   - makeStore: Makes the store a sequence runs on.
///   - update: Applies a step to the model.
///   - check: What must hold after every step, given the store's state and the model.
/// - Returns: What ran and what failed.
@discardableResult
nonisolated(nonsending) public func exploreActions<State, Action: Sendable, Model>(
  _ sequences: ActionSequences = .random(),
  generating generator: ActionGenerator<State, Action>,
  model: Model,
  replaying pin: String? = nil,
  interleavings: ExplorationStrategy? = nil,
  reporter: TestReporter = .automatic,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  store makeStore: @escaping () -> TestStore<State, Action>,
  update: @escaping (_ model: inout Model, _ step: GeneratedStep<Action>) -> Void,
  check: @escaping (_ state: State, _ model: Model) throws -> Void
) async -> ActionExplorationReport {
  let explorer = ActionSequenceExplorer(
    generator: generator, makeStore: makeStore, model: model, update: update,
    check: { state, model, _ in try check(state, model) })
  return await explorer.report(
    sequences, replaying: pin, interleavings: interleavings, reporter: reporter,
    at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
}

extension ActionSequenceExplorer {
  /// " under the interleaving "4:1"", for a failure's message.
  static func underSchedule(_ schedule: String) -> String {
    schedule.isEmpty
      ? " under the interleaving explorer's own order (schedule \"\")"
      : " under the interleaving \"\(schedule)\""
  }

  /// Explores (or replays `pin`), shrinks what fails, and reports it.
  nonisolated(nonsending) func report(
    _ sequences: ActionSequences, replaying pin: String?, interleavings: ExplorationStrategy?,
    reporter: TestReporter, at location: Location
  ) async -> ActionExplorationReport {
    func fail(_ message: String) { reporter.report(location.failure(message)) }
    if let pin {
      let parsed: ActionSequencePin
      do {
        parsed = try ActionSequencePin(pin)
      } catch {
        fail("\(error)")
        return ActionExplorationReport(
          sequencesRun: 0, failingSequence: nil, generatedLength: nil, steps: [], failures: ["\(error)"])
      }
      let run =
        if let schedule = parsed.schedule {
          await run(parsed.choices, underSchedule: schedule)
        } else {
          await run(.replaying(parsed.choices))
        }
      for failure in run.failures { fail("In the generated sequence \"\(pin)\": \(failure)") }
      return ActionExplorationReport(
        sequencesRun: 1, failingSequence: run.failed ? pin : nil, generatedLength: run.failingLength,
        steps: run.steps.map(\.swiftSource), failures: run.failures)
    }
    let (sequencesRun, failing) = await explore(sequences, interleavings: interleavings)
    guard let failing else {
      return ActionExplorationReport(
        sequencesRun: sequencesRun, failingSequence: nil, generatedLength: nil, steps: [], failures: [])
    }
    let shrunk = await shrink(failing, interleavings: interleavings)
    let generated = failing.truncated.steps.count
    let source = regressionTestSource(shrunk.steps, schedule: shrunk.schedule)
    fail(
      """
      Generated action sequences (\(sequences)): sequence \(sequencesRun) failed after \(generated) \
      step\(generated == 1 ? "" : "s")\(shrunk.schedule.map(Self.underSchedule) ?? ""). \
      Shrunk to \(shrunk.steps.count) step\(shrunk.steps.count == 1 ? "" : "s"):

      \(source.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n"))

      Replay it with exploreActions(…, replaying: "\(shrunk.pin)") { … }.

      \(shrunk.failures.joined(separator: "\n\n"))
      """)
    return ActionExplorationReport(
      sequencesRun: sequencesRun, failingSequence: shrunk.pin.description, generatedLength: generated,
      steps: shrunk.steps.map(\.swiftSource), failures: shrunk.failures)
  }
}

import Foundation
import Unidirectional

/// Replays an action log through a reducer, one step at a time, from the log's initial state — without running
/// any effect — and checks every step against the recorded state fingerprints.
///
/// The workflow: record in production, change the reducer, replay to see what changed.
///
/// ```swift
/// let replay = try ActionLogReplay(contentsOf: logURL, reducer: Counter())
/// do {
///   while let step = try replay.next() {
///     print("step \(step.number): \(describe(step.action))")
///   }
/// } catch {
///   print(error)                       // "line 7: corrupt or truncated line: …"; steps 1…5 were replayed
/// }
/// if let divergence = replay.firstDivergence { print(divergence) }
/// ```
///
/// The file is streamed: memory does not grow with the log's length. Replay is exact: the values the reducer read
/// from the non-deterministic built-ins when recording — `uuid()`, `date.now`, the numbers a
/// `withRandomNumberGenerator` body drew, a clock's `now` — are in the log with each step and are given back to it,
/// with no setup; a step that now reads more or fewer of them is a divergence naming them
/// (``ActionLogDivergence/readMismatches``). Every other dependency has its test value (plus
/// `prepareDependencies`, which also overrides the recorded values). A log recorded before exact replay (format
/// version 1) replays with those dependencies only: inject what its reducer read (`$0.uuid = .incrementing`).
/// Effects the reducer returns are dropped: the actions they fed back are in the log.
public final class ActionLogReplay<R: Reducer> where R.State: Codable, R.Action: Decodable {
  /// The log's header.
  public let header: ActionLogHeader
  /// The log's initial state.
  public let initialState: R.State
  /// The state after the last replayed step.
  public private(set) var state: R.State
  /// How many steps have been replayed.
  public private(set) var stepCount = 0
  /// The first step whose replayed state differs from the recorded one, once found.
  public private(set) var firstDivergence: ActionLogDivergence<R.Action>?
  /// Whether steps are checked against the recorded fingerprints.
  public let verifiesFingerprints: Bool

  private let reducer: R
  private let reader: ActionLogLineReader
  private let decoder = JSONDecoder()
  private let dependencies: DependencyValues
  /// Gives the reducer, step by step, what it read when recording (nil for a version 1 log).
  private let feed: DependencyReplayFeed?
  /// Whether `firstDivergence` is set (a flag: testing the optional generic value costs a metadata lookup).
  private var hasDiverged = false
  /// Whether the state holds shared values: each step then reduces a copy whose shared values are its own, so the
  /// state before the step keeps its values (a plain copy would share them with the state after it).
  private var holdsSharedValues = false

  /// Opens the log at `url` and reads its header.
  ///
  /// - Parameters:
  ///   - url: The log file, read line by line as the replay goes.
  ///   - reducer: The reducer to replay through; its `Action` must decode the logged actions.
  ///   - verifyFingerprints: Whether to compute each replayed state's fingerprint and compare it with the
  ///     recorded one (skip it to replay faster).
  ///   - prepareDependencies: Overrides on top of test dependencies, for reducers that read dependencies.
  public init(
    contentsOf url: URL,
    reducer: R,
    verifyFingerprints: Bool = true,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) throws(ActionLogError) {
    reader = try ActionLogLineReader(url: url)
    guard let line = try reader.nextLine() else { throw .missingHeader }
    let (header, initialState) = try ActionLogHeader.decode(
      line.bytes, terminated: line.terminated, state: R.State.self)
    self.header = header
    self.initialState = initialState
    self.state = initialState
    self.reducer = reducer
    self.verifiesFingerprints = verifyFingerprints
    (feed, dependencies) = Self.dependencies(for: header, prepareDependencies)
    if verifyFingerprints, let recorded = header.initialFingerprint {
      let replayed = try fingerprint(initialState, line: 1)
      if replayed != recorded {
        hasDiverged = true
        firstDivergence = ActionLogDivergence(
          number: 0, line: 1, action: nil, recordedFingerprint: recorded, replayedFingerprint: replayed,
          stateDiff: nil, recordedStateDiff: nil)
      }
    } else {
      let encoded = SharedValueHistory.encodedOnThisThread
      _ = try? CanonicalJSONEncoder.encode(initialState)
      holdsSharedValues = SharedValueHistory.encodedOnThisThread != encoded
    }
  }

  /// Where this replay stands: resume from it later with ``init(contentsOf:reducer:resumingAt:withDependencies:)``
  /// instead of replaying from the start again (an inspector keeps one every few thousand steps to jump back).
  public var position: Position {
    Position(
      header: header, initialState: initialState, state: state, stepCount: stepCount, line: reader.linesRead,
      offset: reader.offset, firstDivergence: firstDivergence, verifiesFingerprints: verifiesFingerprints,
      holdsSharedValues: holdsSharedValues)
  }

  /// A replay's place in its log: the state after its last step and the file offset of the next line.
  ///
  /// ```swift
  /// let saved = replay.position                   // after step 4,096
  /// let again = try ActionLogReplay(contentsOf: url, reducer: Counter(), resumingAt: saved)
  /// _ = try again.next()                          // step 4,097
  /// ```
  public struct Position {
    let header: ActionLogHeader
    let initialState: R.State
    /// The state after ``stepCount`` steps.
    public let state: R.State
    /// How many steps had been replayed.
    public let stepCount: Int
    let line: Int
    let offset: Int
    let firstDivergence: ActionLogDivergence<R.Action>?
    let verifiesFingerprints: Bool
    let holdsSharedValues: Bool
  }

  /// Reopens the log at `url` at `position` (taken from a replay of the same file): the next step is the one after
  /// it, replayed through `reducer`.
  public init(
    contentsOf url: URL,
    reducer: R,
    resumingAt position: Position,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) throws(ActionLogError) {
    reader = try ActionLogLineReader(url: url, offset: position.offset, linesBefore: position.line)
    header = position.header
    initialState = position.initialState
    state = position.state
    stepCount = position.stepCount
    firstDivergence = position.firstDivergence
    hasDiverged = position.firstDivergence != nil
    holdsSharedValues = position.holdsSharedValues
    verifiesFingerprints = position.verifiesFingerprints
    self.reducer = reducer
    (feed, dependencies) = Self.dependencies(for: position.header, prepareDependencies)
  }

  /// Test dependencies, fed the recorded values of a log that has them, then changed by `prepareDependencies`.
  private static func dependencies(
    for header: ActionLogHeader, _ prepareDependencies: (inout DependencyValues) -> Void
  ) -> (DependencyReplayFeed?, DependencyValues) {
    var dependencies = DependencyValues(context: .test)
    let feed = header.version >= 2 ? DependencyReplayFeed() : nil
    feed?.install(into: &dependencies)
    prepareDependencies(&dependencies)
    return (feed, dependencies)
  }

  /// Replays the next action; `nil` at the end of the log.
  ///
  /// A line that cannot be replayed throws an ``ActionLogError`` naming it; ``state`` and ``stepCount`` still
  /// describe the steps before it.
  public func next() throws(ActionLogError) -> ActionLogStep<R.State, R.Action>? {
    guard let line = try reader.nextLine() else { return nil }
    let entry: ActionLogLine<R.Action>
    do {
      entry = try decoder.decode(ActionLogLine<R.Action>.self, from: line.bytes)
    } catch let failure as UnrecordedActionFailure {
      throw .unrecordedAction(line: line.number, reason: failure.reason)
    } catch let failure as ActionDecodingFailure {
      throw .unknownAction(line: line.number, reason: "\(failure.reason) in \(ActionLogDecoding.excerpt(line.bytes))")
    } catch {
      let truncated = line.terminated ? "" : " (the file ends in the middle of this line)"
      throw .corruptLine(line: line.number, reason: ActionLogDecoding.reason(error) + truncated)
    }
    let expected = UInt64(stepCount + 1)
    guard entry.sequence == expected else {
      throw .sequenceGap(line: line.number, expected: expected, found: entry.sequence)
    }
    let action = entry.action
    var recorded: ActionLogFingerprint?
    if let hex = entry.fingerprint {
      guard let fingerprint = ActionLogFingerprint(hex: hex) else {
        throw .corruptLine(line: line.number, reason: "fingerprint \"\(hex)\" is not 16 hex digits")
      }
      recorded = fingerprint
    }

    let before = state
    var after = holdsSharedValues ? try detachedCopy(of: state, line: line.number) : state
    feed?.load(entry.reads?.dependencyReads ?? DependencyReads())
    // Effects are dropped: what they fed back is on the following lines.
    _ = withDependencies {
      $0 = dependencies
    } operation: {
      reducer.reduce(into: &after, action: action)
    }
    let readMismatches = (feed?.finishStep() ?? []).map {
      ActionLogReadMismatch(name: $0.name, recorded: $0.recorded, replayed: $0.read)
    }
    state = after
    stepCount += 1

    var replayed: ActionLogFingerprint?
    if verifiesFingerprints, recorded != nil {
      replayed = try fingerprint(after, line: line.number)
    }
    let step = ActionLogStep(
      number: stepCount, line: line.number, origin: entry.origin, time: Self.duration(seconds: entry.seconds),
      action: action, stateBefore: before, state: after, recordedFingerprint: recorded,
      replayedFingerprint: replayed, reads: entry.reads, effectReads: entry.effectReads,
      readMismatches: readMismatches)
    let statesDiffer = recorded != nil && replayed != nil && recorded != replayed
    if !hasDiverged, statesDiffer || !readMismatches.isEmpty {
      hasDiverged = true
      // Only now is the recorded state (if the log has one) decoded: replaying never pays for it otherwise.
      let recordedState = try? decoder.decode(ActionLogRecordedState<R.State>.self, from: line.bytes).state
      firstDivergence = ActionLogDivergence(
        number: step.number, line: step.line, action: action, recordedFingerprint: recorded,
        replayedFingerprint: replayed, readMismatches: readMismatches, stateDiff: step.stateDiff,
        recordedStateDiff: recordedState.flatMap { diff($0, after) })
    }
    return step
  }

  /// ``state`` as JSON — canonical, with secrets redacted as in the log — that `JSONDecoder` reads back into
  /// `State`, to start a store from the state at this step.
  ///
  /// ```swift
  /// while replay.stepCount < 12, try replay.next() != nil {}
  /// try replay.exportState().write(to: stateURL)
  /// let state = try JSONDecoder().decode(Counter.State.self, from: Data(contentsOf: stateURL))
  /// ```
  public func exportState() throws(ActionLogError) -> Data {
    do {
      return Data(try CanonicalJSONEncoder.encode(state))
    } catch {
      throw .encodingFailed(reason: "the state after step \(stepCount): \(ActionLogDecoding.reason(error))")
    }
  }

  /// A copy of `state` whose shared values are new references with the same values (through its `Codable` form,
  /// as the log's states are made).
  private func detachedCopy(of state: R.State, line: Int) throws(ActionLogError) -> R.State {
    do {
      return try decoder.decode(R.State.self, from: Data(CanonicalJSONEncoder.encode(state)))
    } catch {
      throw .encodingFailed(reason: "the state before line \(line): \(ActionLogDecoding.reason(error))")
    }
  }

  private func fingerprint(_ state: R.State, line: Int) throws(ActionLogError) -> ActionLogFingerprint {
    let encoded = SharedValueHistory.encodedOnThisThread
    defer { if SharedValueHistory.encodedOnThisThread != encoded { holdsSharedValues = true } }
    do {
      return try ActionLogFingerprint(of: state)
    } catch {
      throw .encodingFailed(reason: "the replayed state after line \(line): \(ActionLogDecoding.reason(error))")
    }
  }

  private static func duration(seconds: Double) -> Duration {
    guard seconds.isFinite, abs(seconds) < 9e9 else { return .zero }
    return .nanoseconds(Int64((seconds * 1e9).rounded()))
  }
}

extension ActionLogReplay.Position: Sendable where R.State: Sendable, R.Action: Sendable {}

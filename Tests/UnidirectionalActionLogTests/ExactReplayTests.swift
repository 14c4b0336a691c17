import Foundation
import Unidirectional
@testable import UnidirectionalActionLog
import XCTest

/// A feature whose reducer reads every non-deterministic built-in for each item it adds — a UUID, the date, a random
/// number, the clock's `now` — and whose effect reads a UUID too.
struct Stamped: Reducer {
  struct Item: Codable, Equatable, Sendable {
    var id: UUID
    var createdAt: Date
    var roll: Int
    /// The clock's `now`, when it is a test clock's instant.
    var clockTime: Duration?
  }

  struct State: Codable, Equatable, Sendable {
    var items: [Item] = []
    var receipts: [UUID] = []
  }

  enum Action: Codable, Equatable, Sendable {
    case add
    case addTwice
    case fetchReceipt
    case receiptArrived(UUID)
  }

  /// How many UUIDs `.add` makes: 2 makes a "new version" that reads more than was recorded, 0 one that reads fewer.
  var uuidsPerItem = 1

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add:
      var id = UUID(0)
      for _ in 0..<uuidsPerItem { id = uuid() }
      let roll = withRandomNumberGenerator { Int.random(in: 1...1_000_000, using: &$0) }
      let clockTime = (clock.now as? TestClock.Instant)?.offset
      state.items.append(Item(id: id, createdAt: date.now, roll: roll, clockTime: clockTime))
      return .none
    case .addTwice:
      return .merge(.send(.add), .send(.add))
    case .fetchReceipt:
      let uuid = uuid
      return .run { send in send(.receiptArrived(uuid())) }
    case let .receiptArrived(id):
      state.receipts.append(id)
      return .none
    }
  }
}

/// A reducer that reads a UUID for each action (the feature of the version 1 fixture).
struct Identified: Reducer {
  struct State: Codable, Equatable, Sendable { var ids: [UUID] = [] }
  enum Action: Codable, Equatable, Sendable { case add }
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.ids.append(uuid())
    return .none
  }
}

final class ExactReplayTests: XCTestCase {
  /// Records a session of `Stamped` with live generators (random UUIDs, the system's date and random numbers) and a
  /// test clock advanced between sends; returns the final state.
  private func recordStampedSession(to url: URL) async throws -> Stamped.State {
    let clock = TestClock()
    let recorder = try ActionRecorder(fileURL: url)
    let store = Store(initialState: Stamped.State(), recordingTo: recorder) {
      Stamped()
    } withDependencies: {
      $0.uuid = .random
      $0.date = DateGenerator { Date() }
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(SystemRandomNumberGenerator())
      $0.clock = clock
    }
    store.send(.add)
    await clock.advance(by: .milliseconds(1_500))
    store.send(.addTwice)
    await store.send(.fetchReceipt).finish()
    try await recorder.close()
    return store.state
  }

  func testALogReplaysExactlyWithNoDependenciesInjected() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    let recorded = try await recordStampedSession(to: url)
    XCTAssertEqual(recorded.items.count, 3)
    XCTAssertEqual(recorded.items.map(\.clockTime), [.zero, .milliseconds(1_500), .milliseconds(1_500)])

    let issues = LoggedIssues()
    let replay = try ActionLogReplay(contentsOf: url, reducer: Stamped()) { $0.issueReporter = issues.reporter }
    var steps: [ActionLogStep<Stamped.State, Stamped.Action>] = []
    while let step = try replay.next() { steps.append(step) }

    XCTAssertNil(replay.firstDivergence.map(String.init(describing:)))
    XCTAssertEqual(replay.state, recorded)
    XCTAssertEqual(issues.messages, [])
    XCTAssertEqual(
      steps.map(\.action), [.add, .addTwice, .add, .add, .fetchReceipt, .receiptArrived(recorded.receipts[0])])
    XCTAssertEqual(steps.map(\.readMismatches), Array(repeating: [], count: 6))
    // What each step read is in the log with it: the reducer's reads, and the effects' since the step before.
    let first = try XCTUnwrap(steps[0].reads)
    XCTAssertEqual(first.uuids, [recorded.items[0].id])
    XCTAssertEqual(first.dates, [recorded.items[0].createdAt])
    XCTAssertFalse(first.randomNumbers.isEmpty)
    XCTAssertEqual(first.nows, ["clock": [.zero]])
    XCTAssertNil(steps[1].reads)
    XCTAssertEqual(steps[3].reads?.nows, ["clock": [.milliseconds(1_500)]])
    XCTAssertNil(steps[5].reads)
    XCTAssertEqual(steps[5].effectReads?.uuids, recorded.receipts)
  }

  func testAStepThatReadsMoreValuesThanRecordedDivergesNamingThem() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordStampedSession(to: url)
    let replay = try ActionLogReplay(contentsOf: url, reducer: Stamped(uuidsPerItem: 2))
    while try replay.next() != nil {}
    let divergence = try XCTUnwrap(replay.firstDivergence)
    XCTAssertEqual(divergence.number, 1)
    XCTAssertEqual(divergence.readMismatches, [ActionLogReadMismatch(name: "uuid", recorded: 1, replayed: 2)])
    XCTAssertTrue(
      divergence.description.hasPrefix(
        "step 1 (line 2): Stamped.Action.add — the reducer reads non-deterministic values a different number of "
          + "times than when it was recorded (uuid: read 2 times, recorded 1)"), divergence.description)
  }

  func testAStepThatReadsFewerValuesThanRecordedDivergesNamingThem() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordStampedSession(to: url)
    let replay = try ActionLogReplay(contentsOf: url, reducer: Stamped(uuidsPerItem: 0))
    while try replay.next() != nil {}
    let divergence = try XCTUnwrap(replay.firstDivergence)
    XCTAssertEqual(divergence.number, 1)
    XCTAssertEqual(divergence.readMismatches, [ActionLogReadMismatch(name: "uuid", recorded: 1, replayed: 0)])
    // The state differs as well (the item's id), and the divergence says both.
    XCTAssertTrue(divergence.statesDiffer)
    XCTAssertTrue(divergence.description.contains("uuid: read 0 times, recorded 1"), divergence.description)
    XCTAssertTrue(divergence.description.contains("and the replayed state differs"), divergence.description)
  }

  func testDependenciesGivenToTheReplayOverrideTheRecordedValues() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("session.jsonl")
    _ = try await recordStampedSession(to: url)
    let replay = try ActionLogReplay(contentsOf: url, reducer: Stamped()) { $0.uuid = .incrementing }
    let first = try XCTUnwrap(try replay.next())
    XCTAssertEqual(first.state.items.map(\.id), [UUID(0)])
    XCTAssertEqual(replay.firstDivergence?.number, 1)
    XCTAssertEqual(
      replay.firstDivergence?.readMismatches, [ActionLogReadMismatch(name: "uuid", recorded: 1, replayed: 0)])
  }

  func testAVersion1LogReplaysWithTheDependenciesGivenAsBefore() throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("version1.jsonl")
    try Data(Self.version1Log.utf8).write(to: url)
    XCTAssertEqual(try ActionLogHeader.read(from: url).version, 1)

    let replay = try ActionLogReplay(contentsOf: url, reducer: Identified()) { $0.uuid = .incrementing }
    while try replay.next() != nil {}
    XCTAssertEqual(replay.state.ids, [UUID(0), UUID(1)])
    XCTAssertNil(replay.firstDivergence)

    // Without them the reducer reads the unimplemented test value (the zero UUID, reported every time): the first
    // step still matches, the second diverges — what replaying such a log always did.
    let issues = LoggedIssues()
    let unprepared = try ActionLogReplay(contentsOf: url, reducer: Identified()) {
      $0.issueReporter = issues.reporter
    }
    while try unprepared.next() != nil {}
    XCTAssertEqual(unprepared.state.ids, [UUID(0), UUID(0)])
    XCTAssertEqual(unprepared.firstDivergence?.number, 2)
    XCTAssertEqual(unprepared.firstDivergence?.readMismatches, [])
    XCTAssertEqual(issues.messages.count, 2)
    XCTAssertTrue(issues.messages.allSatisfy { $0.contains("@Dependency(\\.uuid)") }, "\(issues.messages)")
  }

  func testReadsRoundTripThroughTheLogExactly() throws {
    let reads = ActionLogReads(
      uuids: [UUID(0), UUID()], dates: [Date(timeIntervalSinceReferenceDate: 786_000_000.123_456_7), Date()],
      randomNumbers: [0, 42, .max], nows: ["clock": [.nanoseconds(1), .seconds(3)], "continuousClock": [.zero]])
    let json = try CanonicalJSONEncoder.encode(reads)
    XCTAssertEqual(try JSONDecoder().decode(ActionLogReads.self, from: Data(json)), reads)
    XCTAssertEqual(
      String(decoding: try CanonicalJSONEncoder.encode(ActionLogReads(randomNumbers: [.max])), as: UTF8.self),
      #"{"random":[18446744073709551615]}"#)
  }

  func testSequenceDependenciesGiveTheirValuesInOrderThenReportEachReadTooMany() {
    let issues = LoggedIssues()
    withDependencies {
      $0.issueReporter = issues.reporter
    } operation: {
      let uuid = UUIDGenerator.sequence([UUID(7)])
      XCTAssertEqual([uuid(), uuid(), uuid()], [UUID(7), UUID(0), UUID(1)])
      let date = DateGenerator.sequence([Date(timeIntervalSinceReferenceDate: 5)])
      XCTAssertEqual(
        [date.now, date.now], [Date(timeIntervalSinceReferenceDate: 5), Date(timeIntervalSinceReferenceDate: 5)])
      let random = WithRandomNumberGenerator.sequence([42, .max])
      let numbers = random { [$0.next(), $0.next(), $0.next()] }
      XCTAssertEqual(Array(numbers.prefix(2)), [42, .max])
      // The same numbers drawn give the same roll: what a test written from a log relies on.
      let rolls = (0..<2).map { _ in
        let recorded = WithRandomNumberGenerator.sequence([0x9E37_79B9_7F4A_7C15, 12_345])
        return recorded { Int.random(in: 1...6, using: &$0) }
      }
      XCTAssertEqual(rolls[0], rolls[1])
    }
    XCTAssertEqual(
      issues.messages,
      [
        "@Dependency(\\.uuid) was called 2 times; its sequence has 1 value.",
        "@Dependency(\\.uuid) was called 3 times; its sequence has 1 value.",
        "@Dependency(\\.date) was read 2 times; its sequence has 1 value.",
        "@Dependency(\\.withRandomNumberGenerator) drew 3 times; its sequence has 2 values.",
      ])
  }

  func testARecordingStoreKeepsItsTestClockATestClockForWhatSchedulesOnIt() {
    var values = DependencyValues(context: .test)
    let clock = TestClock()
    values.clock = clock
    values.continuousClock = ImmediateClock()
    DependencyReadTape().install(into: &values)
    // Wrapped to record `now`, and still the same clocks underneath (a TestClock's scheduling, the recorder's times).
    XCTAssertFalse(values.clock is TestClock)
    XCTAssertTrue(unwrapped(values.clock) as? TestClock === clock)
    XCTAssertTrue(unwrapped(values.continuousClock) is ImmediateClock)
    // An unimplemented clock is left alone: wrapping it would read it, and fail a test that never uses it.
    XCTAssertTrue(values.suspendingClock is UnimplementedClock)
  }

  /// A log written by the recorder before exact replay (format version 1, no reads): two `.add`s of `Identified`
  /// recorded with `$0.uuid = .incrementing`.
  static let version1Log = #"""
    {"format":"unidirectional-action-log","version":1,"feature":"Identified","fingerprints":"fnv1a64-structural","initialFingerprint":"3eb3f24b7647508c","initialState":{"ids":[]}}
    {"seq":1,"origin":"sent","time":0,"action":{"add":{}},"fingerprint":"37ed967ae4e65d40"}
    {"seq":2,"origin":"sent","time":0,"action":{"add":{}},"fingerprint":"37fb9533e6c6b270"}

    """#
}

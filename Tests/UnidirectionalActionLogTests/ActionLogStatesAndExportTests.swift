import Foundation
import Unidirectional
import UnidirectionalActionLog
import XCTest

/// Logs that carry states (`ActionRecorder(states: true)`) show, at the first divergence, how the recorded and the
/// replayed states differ; any replayed step's state exports as JSON a store can start from.
final class ActionLogStatesAndExportTests: XCTestCase {
  private struct Account: Reducer {
    struct State: Codable, Equatable, Sendable {
      var balance = 0
      var owner = "Ada"
      @Redacted var pin: String = ""
    }
    enum Action: Codable, Equatable, Sendable { case deposit(Int), pinSet(Redacted<String>) }

    /// A "new version" of the reducer keeps a fee on every deposit.
    var fee = 0

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .deposit(amount): state.balance += amount - fee
      case let .pinSet(pin): state.pin = pin.wrappedValue
      }
      return .none
    }
  }

  private func record(to url: URL, states: Bool) async throws {
    let recorder = try ActionRecorder(fileURL: url, feature: "Account", states: states)
    // The recorder stamps each line with the clock's time: without an override a test reads the unimplemented
    // clock, which fails the test once a TestStore has made issues fail tests (any earlier test in the run).
    let store = Store(initialState: Account.State(), recordingTo: recorder) {
      Account()
    } withDependencies: {
      $0.clock = ImmediateClock()
    }
    store.send(.pinSet(Redacted("4321")))
    store.send(.deposit(100))
    store.send(.deposit(50))
    try await recorder.close()
  }

  func testALogWithStatesShowsTheRecordedAndReplayedStatesAtTheFirstDivergence() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("account.jsonl")
    try await record(to: url, states: true)
    let text = try String(contentsOf: url, encoding: .utf8)
    XCTAssertFalse(text.contains("4321"), "the pin never reaches the log")
    let lines = text.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines[2].hasSuffix(#","state":{"balance":100,"owner":"Ada","pin":"<redacted>"}}"#), lines[2])

    let replay = try ActionLogReplay(contentsOf: url, reducer: Account(fee: 1))
    while try replay.next() != nil {}
    let divergence = try XCTUnwrap(replay.firstDivergence)
    XCTAssertEqual(divergence.number, 2)
    XCTAssertEqual(
      divergence.recordedStateDiff,
      """
        ActionLogStatesAndExportTests.Account.State(
      -   balance: 100,
      +   balance: 99,
          owner: "Ada",
          _pin: <redacted>
        )
      """)
    XCTAssertTrue(
      divergence.description.hasSuffix(
        "\nthe recorded state (-) and the replayed state (+) after the step:\n\(divergence.recordedStateDiff ?? "")"),
      divergence.description)
  }

  func testWithoutStatesTheDivergenceShowsWhatTheActionDoesNow() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("account.jsonl")
    try await record(to: url, states: false)
    XCTAssertFalse(try String(contentsOf: url, encoding: .utf8).contains(#""state""#))
    let replay = try ActionLogReplay(contentsOf: url, reducer: Account(fee: 1))
    while try replay.next() != nil {}
    let divergence = try XCTUnwrap(replay.firstDivergence)
    XCTAssertNil(divergence.recordedStateDiff)
    XCTAssertFalse(divergence.description.contains("the recorded state (-)"), divergence.description)
    XCTAssertNotNil(divergence.stateDiff)
  }

  func testTheStateAtAStepExportsAsJSONAStoreCanStartFrom() async throws {
    let folder = try ScratchFolder(self)
    let url = folder.file("account.jsonl")
    try await record(to: url, states: false)
    let replay = try ActionLogReplay(contentsOf: url, reducer: Account())
    XCTAssertEqual(
      String(decoding: try replay.exportState(), as: UTF8.self), #"{"balance":0,"owner":"Ada","pin":"<redacted>"}"#)
    while replay.stepCount < 2, try replay.next() != nil {}
    let exported = try replay.exportState()
    XCTAssertEqual(String(decoding: exported, as: UTF8.self), #"{"balance":100,"owner":"Ada","pin":"<redacted>"}"#)

    let state = try JSONDecoder().decode(Account.State.self, from: exported)
    XCTAssertEqual(state.balance, 100)
    XCTAssertEqual(state.pin, "", "a secret comes back as its placeholder, never as itself")
    let store = Store(initialState: state) { Account() }
    store.send(.deposit(50))
    XCTAssertEqual(store.balance, 150)
  }
}

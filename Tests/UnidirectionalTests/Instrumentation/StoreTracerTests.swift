import Foundation
import Synchronization
import Unidirectional
import XCTest

private struct Transfers: Reducer {
  struct State: Equatable, Sendable { var done = 0 }
  enum Action: Equatable, Sendable { case quick, slow, stop, done, hold }
  enum CancelID { case slow, hold }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .quick:
      return .run { send in send(.done) }
    case .slow:
      return .run { [clock] _ in try await clock.sleep(for: .seconds(3600)) }.cancellable(id: CancelID.slow)
    case .hold:
      return .run { [clock] _ in try await clock.sleep(for: .seconds(3600)) }.cancellable(id: CancelID.hold)
    case .stop:
      return .cancel(id: CancelID.slow)
    case .done:
      state.done += 1
      return .none
    }
  }
}

final class StoreTracerTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("tracer-\(UUID().uuidString)")

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testTheTraceHasAnActionsTrackAndOneTrackPerEffect() async throws {
    let url = folder.appendingPathComponent("run.trace.json")
    let tracer = try StoreTracer(fileURL: url)
    let clock = TestClock()
    let store = Store(initialState: Transfers.State(), instruments: [tracer.instrument(for: Transfers.self)]) {
      Transfers()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.quick).finish()
    let slow = store.send(.slow)
    store.send(.stop)
    await slow.finish()
    store.send(.hold)
    try tracer.close()
    store.send(.quick)  // after close: not in the file

    let events = try Self.events(in: url)
    func named(_ name: String, phase: String? = nil) -> [[String: Any]] {
      events.filter { $0["name"] as? String == name && (phase == nil || $0["ph"] as? String == phase) }
    }

    // The store is a process; its actions are thread 0.
    XCTAssertEqual(named("process_name").first?["args"] as? [String: String], ["name": "Transfers store"])
    let threadNames = named("thread_name").compactMap { event -> String? in
      guard let tid = event["tid"] as? Int, let name = (event["args"] as? [String: Any])?["name"] as? String else {
        return nil
      }
      return "\(tid): \(name)"
    }
    XCTAssertEqual(
      threadNames,
      [
        "0: actions", "1: effect 1 · .quick", "2: effect 2 · .slow", "3: effect 3 · .hold",
      ])

    // One slice per reduced action, in order, with its reducer time and arguments.
    let actions = events.filter { $0["cat"] as? String == "action" }
    XCTAssertEqual(actions.compactMap { $0["name"] as? String }, [".quick", ".done", ".slow", ".stop", ".hold"])
    XCTAssertTrue(
      actions.allSatisfy { $0["ph"] as? String == "X" && $0["tid"] as? Int == 0 && $0["pid"] as? Int == 1 })
    let starts = actions.compactMap { $0["ts"] as? Double }
    XCTAssertEqual(starts, starts.sorted())
    XCTAssertTrue(actions.allSatisfy { ($0["dur"] as? Double ?? -1) >= 0 })
    let arguments = actions.compactMap { $0["args"] as? [String: Any] }
    XCTAssertEqual(arguments.first?["action"] as? String, "Transfers.Action.quick")
    XCTAssertEqual(arguments.compactMap { $0["sequence"] as? Int }, [1, 2, 3, 4, 5])
    XCTAssertEqual(
      arguments.compactMap { $0["origin"] as? String }, ["sent", "received", "sent", "sent", "sent"])
    XCTAssertEqual(arguments[1]["effect"] as? Int, 1, "the fed-back action names its effect")

    // Effects: a slice each on their own track; the cancelled one is marked; the one still running is ended at close.
    let effects = events.filter { $0["cat"] as? String == "effect" && $0["ph"] as? String == "X" }
    XCTAssertEqual(effects.compactMap { $0["tid"] as? Int }.sorted(), [1, 2, 3])
    let byTrack = Dictionary(
      uniqueKeysWithValues: effects.compactMap { effect in
        (effect["tid"] as? Int).map { ($0, effect["args"] as? [String: Any] ?? [:]) }
      })
    XCTAssertEqual(byTrack[1]?["startedBy"] as? Int, 1)
    XCTAssertNil(byTrack[1]?["cancelled"])
    XCTAssertEqual(byTrack[2]?["cancelled"] as? Bool, true)
    XCTAssertEqual(byTrack[3]?["unfinished"] as? Bool, true)
    let cancelled = events.filter { $0["name"] as? String == "cancelled" }
    XCTAssertEqual(cancelled.compactMap { $0["tid"] as? Int }, [2])
    XCTAssertEqual(cancelled.first?["ph"] as? String, "i")
  }

  func testEachStoreIsAProcessOfItsOwn() async throws {
    let url = folder.appendingPathComponent("two.trace.json")
    let tracer = try StoreTracer(fileURL: url)
    let first = Store(initialState: Transfers.State(), instruments: [tracer.instrument(for: Transfers.self)]) {
      Transfers()
    }
    let second = Store(initialState: Transfers.State(), instruments: [tracer.instrument(for: Transfers.self)]) {
      Transfers()
    }
    first.send(.done)
    second.send(.done)
    try tracer.flush()
    let flushed = try String(contentsOf: url, encoding: .utf8)
    XCTAssertTrue(flushed.hasPrefix("[\n"), flushed)
    XCTAssertEqual(flushed.components(separatedBy: #""cat":"action""#).count - 1, 2, "flush writes what was observed")
    try tracer.close()
    let actions = try Self.events(in: url).filter { $0["cat"] as? String == "action" }
    XCTAssertEqual(actions.compactMap { $0["pid"] as? Int }.sorted(), [1, 2])
  }

  /// Once the store is gone there is no store lock to take, yet the tracer closing (which appends the end of the
  /// store's effects) may meet a drain running on the tracer's queue: they are ordered by a lock of the tracer's own
  /// (`Scripts/tsan` reported the two touching the queued events at once when they were not).
  func testClosingWhileADrainRunsAfterTheStoreIsGoneKeepsEveryEvent() async throws {
    for round in 0..<40 {
      let url = folder.appendingPathComponent("gone-\(round).trace.json")
      let tracer = try StoreTracer(fileURL: url)
      do {
        let store = Store(initialState: Transfers.State(), instruments: [tracer.instrument(for: Transfers.self)]) {
          Transfers()
        }
        await store.send(.quick).finish()
      }
      let failures = Mutex<[StoreTraceError]>([])
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        do throws(StoreTraceError) {
          if index == 0 { try tracer.flush() } else { try tracer.close() }
        } catch {
          failures.withLock { $0.append(error) }
        }
      }
      XCTAssertEqual(failures.withLock { $0 }, [])
      let actions = try Self.events(in: url).filter { $0["cat"] as? String == "action" }
      XCTAssertEqual(actions.compactMap { $0["name"] as? String }, [".quick", ".done"], "round \(round)")
    }
  }

  func testActionNamesKeepTheCasesAndDropTheTypeNames() throws {
    let url = folder.appendingPathComponent("names.trace.json")
    let tracer = try StoreTracer(fileURL: url)
    let store = Store(initialState: Hub.State(), instruments: [tracer.instrument(for: Hub.self)]) { Hub() }
    store.send(.transfers(.done))
    store.send(.renamed("a \"quoted\" Hub.Action.name\n"))
    try tracer.close()
    let actions = try Self.events(in: url).filter { $0["cat"] as? String == "action" }
    XCTAssertEqual(
      actions.compactMap { $0["name"] as? String },
      [".transfers(.done)", #".renamed("a \"quoted\" Hub.Action.name\n")"#])
    XCTAssertEqual(
      (actions.first?["args"] as? [String: Any])?["action"] as? String, "Hub.Action.transfers(Transfers.Action.done)")
  }

  func testAnUnwritablePathIsATypedError() {
    let url = folder.appendingPathComponent("no/such/folder/run.json")
    XCTAssertThrowsError(try StoreTracer(fileURL: url)) { error in
      XCTAssertEqual(error as? StoreTraceError, .cannotOpen(path: url.path, reason: "the file cannot be created"))
    }
  }

  /// The trace's events, parsed as JSON.
  static func events(in url: URL) throws -> [[String: Any]] {
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    return try XCTUnwrap(json as? [[String: Any]], "the trace is not a JSON array of objects")
  }
}

private struct Hub: Reducer {
  struct State: Equatable, Sendable { var transfers = Transfers.State() }
  enum Action: Equatable, Sendable {
    case transfers(Transfers.Action)
    case renamed(String)
    static let transfersCase = CasePath(Action.transfers) {
      if case let .transfers(action) = $0 { action } else { nil }
    }
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.transfers, action: Action.transfersCase) { Transfers() }
  }
}

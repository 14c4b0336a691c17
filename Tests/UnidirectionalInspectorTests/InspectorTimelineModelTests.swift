import Foundation
import Unidirectional
import XCTest

@testable import UnidirectionalInspector

private struct Counter: Reducer {
  struct State: Codable, Sendable, Equatable { var count = 0 }
  enum Action: Codable, Sendable, Equatable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// Waits for a gate, then ends: an effect the test lets finish when it wants.
private struct Gated: Reducer {
  struct State: Equatable, Sendable { var ticks = 0 }
  enum Action: Equatable, Sendable { case start, tick }
  let gate: AsyncStream<Void>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [gate] _ in
        for await _ in gate { break }
      }
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

/// Starts an effect that sleeps on the injected clock.
private struct Sleeper: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable { case start }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { [clock] _ in try await clock.sleep(for: .seconds(1)) }
  }
}

/// The effect timeline as the inspector's models serve it: a log opened with its trace (or with a bad one, which
/// leaves the log open), and a live store's effects collected beside its steps.
final class InspectorTimelineModelTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString)")

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testALogWithItsTraceServesTheEffectsOfAWindowOfSteps() throws {
    let log = try write("counter.jsonl", Self.log(steps: 3))
    let trace = try write(
      "counter.trace.json",
      "[\n"
        + [
          InspectorTraceTests.process("Counter store"), InspectorTraceTests.action(1, at: 1),
          InspectorTraceTests.effectSlice(1, startedBy: 1, from: 2, to: 25), InspectorTraceTests.action(2, at: 10),
          InspectorTraceTests.action(3, at: 20), InspectorTraceTests.effectSlice(2, startedBy: 3, from: 21, to: 22),
        ].joined(separator: ",\n") + "\n]\n")
    let model = try InspectorLogModel(contentsOf: log, reducer: Counter(), trace: trace)
    XCTAssertEqual(
      model.info().timeline,
      InspectorTimelineInfo(source: "counter.trace.json", effectCount: 2, notes: [], error: nil))
    let page = try model.effects(from: 2, to: 2, offset: 0, count: 10)
    XCTAssertEqual(page.effects.map(\.id), [1])
    XCTAssertEqual(page.total, 1)
    XCTAssertEqual(try model.effects(from: 3, to: 3, offset: 0, count: 10).effects.map(\.id), [1, 2])
    XCTAssertEqual(try model.effects(from: 3, to: 3, offset: 1, count: 10).effects.map(\.id), [2])
  }

  func testABadTraceLeavesTheLogOpenAndSaysWhy() throws {
    let log = try write("counter.jsonl", Self.log(steps: 3))
    let broken = try write("broken.trace.json", #"[{"name":"x","ph":}]"#)
    let model = try InspectorLogModel(contentsOf: log, reducer: Counter(), trace: broken)
    XCTAssertEqual(model.info().stepCount, 3)
    XCTAssertTrue(try model.step(2).state.contains("count: 2"))
    XCTAssertEqual(
      model.info().timeline?.error, "trace \(broken.path) is not valid JSON at byte 18: a value was expected")
    XCTAssertThrowsError(try model.effects(from: 1, to: 3, offset: 0, count: 10)) { error in
      XCTAssertEqual(error as? InspectorError, .noTimeline)
    }
    // Without a trace: no timeline at all.
    let plain = try InspectorLogModel(contentsOf: log, reducer: Counter())
    XCTAssertNil(plain.info().timeline)
    XCTAssertThrowsError(try plain.effects(from: 1, to: 3, offset: 0, count: 10))
  }

  func testATraceOfAnotherRunIsShownWithAWarning() throws {
    let log = try write("counter.jsonl", Self.log(steps: 3))
    let trace = try write(
      "other.trace.json",
      "[" + (1...5).map { InspectorTraceTests.action($0, at: Double($0)) }.joined(separator: ",") + "]")
    let notes = try InspectorLogModel(contentsOf: log, reducer: Counter(), trace: trace).info().timeline?.notes
    XCTAssertEqual(
      notes, ["the trace's last action is step 5 but the log has 3 steps: they may not be of the same run"])
  }

  func testLiveEffectsAppearWhenStartedAndEndAtTheStepReachedWhenTheyFinish() async throws {
    let (gate, open) = AsyncStream<Void>.makeStream()
    let live = InspectorLive(feature: "Gated")
    let store = Store(initialState: Gated.State(), instruments: [live.instrument(for: Gated.self)]) {
      Gated(gate: gate)
    }
    let started = store.send(.start)  // step 1: effect 1
    store.send(.tick)  // step 2
    live.collect()
    var effects = live.effects(from: 1, to: 2, offset: 0, count: 10).effects
    XCTAssertEqual(effects.map(\.id), [1])
    XCTAssertEqual(effects.first?.startedBy, 1)
    XCTAssertEqual(effects.first?.name, "start")
    XCTAssertNil(effects.first?.endStep, "running")
    XCTAssertEqual(live.info().timeline?.effectCount, 1)

    store.send(.tick)  // step 3
    live.collect()  // the buffer is empty again when the effect finishes: it ends at the last step collected
    open.yield()
    await started.finish()
    live.collect()
    effects = live.effects(from: 1, to: 9, offset: 0, count: 10).effects
    XCTAssertEqual(effects.first?.endStep, 3)
    XCTAssertGreaterThanOrEqual(effects.first?.duration ?? -1, 0)
    XCTAssertEqual(live.effects(from: 4, to: 9, offset: 0, count: 10).total, 0, "it ended at step 3")
  }

  func testAFullLiveBufferDropsEffectEventsAndSaysSo() throws {
    let live = InspectorLive(feature: "Sleeper")
    let store = Store(initialState: Sleeper.State(), instruments: [live.instrument(for: Sleeper.self, bufferLimit: 1)])
    {
      Sleeper()
    } withDependencies: {
      $0.clock = TestClock()
    }
    for _ in 0..<5 { store.send(.start) }
    live.collect()
    let kept = live.effects(from: 1, to: 9, offset: 0, count: 10).effects.map(\.id)
    XCTAssertEqual(kept.first, 1)
    // The inspector's own collector may empty the buffer between two sends too: then fewer are dropped.
    let note = try XCTUnwrap(live.info().timeline?.notes.first)
    let dropped = try XCTUnwrap(Int(note.prefix { $0.isNumber }))
    XCTAssertEqual(note, "\(dropped) effect events dropped (the inspector fell behind)")
    XCTAssertEqual(kept.count + dropped, 5)
  }

  func testWhatWasSentBeforeACollectIsThereWhenItReturnsWhileTheBackgroundCollectorRuns() {
    let live = InspectorLive(feature: "Sleeper")
    let store = Store(initialState: Sleeper.State(), instruments: [live.instrument(for: Sleeper.self)]) {
      Sleeper()
    } withDependencies: {
      $0.clock = TestClock()
    }
    // The background collector takes every 20 ms; a collect beside it must not return before what it took is in.
    // (10,000 rounds take ~0.4 s here: about twenty of its turns.)
    for sent in 1...10_000 {
      store.send(.start)
      live.collect()
      guard live.info().timeline?.effectCount == sent else {
        return XCTFail("after \(sent) sends and a collect: \(live.info().timeline?.effectCount ?? 0) effects")
      }
    }
  }

  private func write(_ name: String, _ text: String) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
  }

  private static func log(steps: Int) -> String {
    #"{"format":"unidirectional-action-log","version":1,"feature":"Counter","initialState":{"count":0}}"# + "\n"
      + (1...steps).map { #"{"seq":\#($0),"origin":"sent","time":\#($0),"action":{"increment":{}}}"# + "\n" }
      .joined()
  }
}

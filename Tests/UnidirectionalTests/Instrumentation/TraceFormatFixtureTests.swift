import Foundation
import XCTest

@testable import Unidirectional

/// `Tests/Fixtures/every-event.trace.json` is what the trace writer writes for a scripted run of two stores: every
/// kind of event `TraceFormat` makes (see `TraceSchema`). The readers' tests read that file — the inspector's
/// (`InspectorTraceFixtureTests`) and `Scripts/trace_to_html.py`'s (`Scripts/tests/test_trace_to_html.py`) — so a
/// name changed on one side and not on the other fails a test.
///
/// After changing the format on purpose, rewrite the file with `UNIDIRECTIONAL_WRITE_FIXTURES=1 swift test --filter
/// TraceFormatFixtureTests`, then make both readers read it.
final class TraceFormatFixtureTests: XCTestCase {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/every-event.trace.json")

  func testTheFixtureIsWhatTheWriterWritesNow() throws {
    let written = Self.everyEvent()
    if ProcessInfo.processInfo.environment["UNIDIRECTIONAL_WRITE_FIXTURES"] == "1" {
      try Data(written.utf8).write(to: Self.fixture)
    }
    let fixture = try String(contentsOf: Self.fixture, encoding: .utf8)
    XCTAssertEqual(
      fixture, written,
      "the writer no longer writes \(Self.fixture.path): if the format changed on purpose, rewrite the file "
        + "(UNIDIRECTIONAL_WRITE_FIXTURES=1) and make both readers read it")
  }

  func testTheFixtureHasEveryKindOfEvent() throws {
    let events = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixture)) as? [[String: Any]])
    let kinds = Set(
      events.map { event in
        [event["ph"], event["cat"] ?? event["name"]].map { $0.map { "\($0)" } ?? "-" }.joined(separator: " ")
      })
    XCTAssertEqual(
      kinds,
      [
        "M process_name", "M process_sort_index", "M thread_name", "M thread_sort_index", "X action", "X effect",
        "i effect", "i tracer",
      ])
    let arguments = events.compactMap { $0["args"] as? [String: Any] }
    XCTAssertTrue(arguments.contains { $0["effect"] != nil }, "an action fed back by an effect")
    XCTAssertTrue(arguments.contains { $0["cancelled"] as? Bool == true }, "a cancelled effect")
    XCTAssertTrue(arguments.contains { $0["unfinished"] as? Bool == true }, "an effect running at the close")
    XCTAssertTrue(
      arguments.contains { $0["state"] is String && $0["diff"] is String }, "an action traced with its state")
  }

  /// Two stores, their events interleaved as two tracer queues write them: the uploads store starts two effects, one
  /// of which feeds back an action that starts a third; one is cancelled, the tracer falls behind once, and the
  /// third is still running at the close, as is the timer store's only effect.
  static func everyEvent() -> String {
    let origin: UInt64 = 5_000_000_000
    /// `microseconds` after the trace's start, in nanoseconds.
    func at(_ microseconds: UInt64) -> UInt64 { origin + microseconds * 1_000 }
    func reduction(_ sequence: UInt64, _ origin: ActionOrigin, effect: UInt64? = nil, at start: UInt64)
      -> Reduction
    {
      Reduction(
        sequence: sequence, origin: origin, effect: effect,
        timing: ReducerTiming(start: at(start), nanoseconds: 500 + 250 * sequence))
    }
    func effect(_ kind: EffectEvent.Kind, _ id: UInt64, startedBy: UInt64, parent: UInt64? = nil, at time: UInt64)
      -> EffectEvent
    {
      EffectEvent(kind: kind, effect: id, startedBy: startedBy, parent: parent, time: at(time))
    }

    var uploads = TraceFormat(process: 1, origin: origin)
    var timer = TraceFormat(process: 2, origin: origin)
    var lines: [String] = []
    uploads.start(name: "Uploads", into: &lines)
    uploads.action("Uploads.Action.start", reduction(1, .sent, at: 10), into: &lines)
    uploads.effect(effect(.started, 1, startedBy: 1, at: 13), into: &lines)
    uploads.effect(effect(.started, 2, startedBy: 1, at: 13), into: &lines)
    uploads.action("Uploads.Action.progress(0.5)", reduction(2, .received, effect: 1, at: 200), into: &lines)
    uploads.effect(effect(.started, 3, startedBy: 2, parent: 1, at: 202), into: &lines)
    timer.start(name: "Timer", into: &lines)
    timer.action("Timer.Action.tick", reduction(1, .sent, at: 250), into: &lines)
    timer.effect(effect(.started, 1, startedBy: 1, at: 251), into: &lines)
    // Traced with its state (as the interleaving explorer saves a failing run): the state after it and its diff.
    uploads.action(
      #"Uploads.Action.rename("a \"quoted\" name\n")"#, reduction(3, .sent, at: 300),
      state: TracedState(
        dump: #"Uploads.State(name: "a \"quoted\" name\n")"#,
        diff: "  Uploads.State(\n-   name: \"\"\n+   name: \"a \\\"quoted\\\" name\\n\"\n  )"), into: &lines)
    uploads.action("Uploads.Action.cancel", reduction(4, .sent, at: 400), into: &lines)
    uploads.effect(effect(.cancelled, 2, startedBy: 1, at: 401), into: &lines)
    uploads.effect(effect(.finished, 2, startedBy: 1, at: 420), into: &lines)
    uploads.effect(effect(.finished, 1, startedBy: 1, at: 500), into: &lines)
    uploads.dropped(3, at: at(600), into: &lines)
    uploads.finishRunningEffects(at: at(1_000), into: &lines)
    timer.finishRunningEffects(at: at(1_000), into: &lines)
    return TraceFormat.opening + lines.joined(separator: TraceFormat.separator) + TraceFormat.closing
  }
}

import Foundation
import Unidirectional
import XCTest

@testable import UnidirectionalInspector

/// The inspector reads all of `Tests/Fixtures/every-event.trace.json`, the trace the writer writes for a scripted run
/// with every kind of event (`TraceFormatFixtureTests` pins the file to the writer; `Scripts/trace_to_html.py`'s test
/// reads it too): both stores, every action, every effect with the steps it ran through, the cancellation, the effect
/// still running at the close and the events the tracer dropped.
final class InspectorTraceFixtureTests: XCTestCase {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/every-event.trace.json")

  func testEveryEventOfTheWritersTraceIsRead() throws {
    let trace = try InspectorTrace(contentsOf: Self.fixture, feature: "Uploads")
    XCTAssertEqual(trace.storeName, "Uploads store")
    XCTAssertEqual(trace.lastStep, 4)
    XCTAssertEqual(
      trace.notes,
      [
        "the trace has 2 stores: the timeline shows Uploads store",
        "the tracer fell behind and dropped 3 events: effects may be missing or unfinished",
      ])
    XCTAssertEqual(
      trace.effects(from: 1, to: 4, offset: 0, count: 10).effects,
      [
        InspectorEffect(
          id: 1, startedBy: 1, parent: nil, name: ".start", endStep: 4, cancelled: false, cancelStep: nil,
          start: 13 / 1e6, duration: 487 / 1e6),
        InspectorEffect(
          id: 2, startedBy: 1, parent: nil, name: ".start", endStep: 4, cancelled: true, cancelStep: 4,
          start: 13 / 1e6, duration: 407 / 1e6),
        InspectorEffect(
          id: 3, startedBy: 2, parent: 1, name: ".progress(0.5)", endStep: nil, cancelled: false, cancelStep: nil,
          start: 202 / 1e6, duration: nil),
      ])

    let timer = try InspectorTrace(contentsOf: Self.fixture, feature: "Timer")
    XCTAssertEqual(timer.storeName, "Timer store")
    XCTAssertEqual(timer.lastStep, 1)
    XCTAssertEqual(
      timer.effects(from: 1, to: 1, offset: 0, count: 10).effects,
      [
        InspectorEffect(
          id: 1, startedBy: 1, parent: nil, name: ".tick", endStep: nil, cancelled: false, cancelStep: nil,
          start: 251 / 1e6, duration: nil)
      ])
  }

  /// What the event reader keeps of each event: the actions' processes, sequences and names (`rename`'s quotes and
  /// backslashes, escaped in the file, read back as written) and the count of dropped events.
  func testTheReaderKeepsEveryMemberTheInspectorUses() throws {
    let data = try Data(contentsOf: Self.fixture)
    var actions: [String] = []
    var dropped: [UInt64] = []
    try data.withUnsafeBytes { bytes in
      var reader = TraceEventReader(bytes)
      while case let .event(event) = try reader.next() {
        if event.is(event.category, TraceSchema.Category.action), let sequence = event.sequence {
          actions.append("\(event.process ?? 0)/\(sequence) \(event.text(event.name) ?? "")")
        }
        if event.is(event.name, TraceSchema.Name.droppedEvents) { dropped.append(event.count ?? 0) }
      }
    }
    XCTAssertEqual(
      actions, ["1/1 .start", "1/2 .progress(0.5)", "2/1 .tick", #"1/3 .rename("a \"quoted\" name\n")"#, "1/4 .cancel"])
    XCTAssertEqual(dropped, [3])
  }
}

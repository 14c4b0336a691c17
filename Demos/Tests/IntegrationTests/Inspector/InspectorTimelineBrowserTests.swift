import Foundation
import XCTest

/// The effect timeline in a real headless Chromium: a scan run recorded with its trace (`demo scan --record LOG
/// --trace TRACE`, then `demo inspect LOG --trace TRACE`), checked against the trace itself; a trace that is not
/// one, which leaves the log open. (A live run's effect: `InspectorLiveAndHostileBrowserTests`.)
final class InspectorTimelineBrowserTests: XCTestCase {
  private let folder = scratchFolderPath("inspector-timeline")

  override func setUpWithError() throws {
    try createScratchFolder(folder)
  }

  func testSelectingAStepHighlightsTheEffectsItStartedAndTheOnesRunningAtIt() throws {
    let log = folder.appendingPathComponent("scan.jsonl")
    let trace = folder.appendingPathComponent("scan.trace.json")
    let recorded = try DemoProcess.run(
      ["scan", "--record", log.path, "--trace", trace.path], in: folder, timeout: 120)
    XCTAssertEqual(recorded.status, 0, recorded.errors)
    // The model's effect gets a hostile name: it must show as text, and nothing in it may run.
    let hostile = #"<img src=x onerror=\"window.__pwned=1\"><script>window.__pwned=2</script>"#
    var text = String(decoding: try Data(contentsOf: trace), as: UTF8.self)
    text = text.replacingOccurrences(of: #""name":"effect 2 · "#, with: #""name":"effect 2 · "# + hostile)
    try Data(text.utf8).write(to: trace)

    // What the page should show, worked out from the trace's own events.
    let oracle = try TraceOracle(trace)
    let modelStep = try XCTUnwrap(oracle.startingStep(of: 2), "the scan's second effect (the model) is in the trace")
    XCTAssertEqual(oracle.started(at: modelStep), [2])

    let (_, url) = try startInspector(["inspect", log.path, "--trace", trace.path], in: folder)
    let lanes = { (kind: String) in
      "Array.from(document.querySelectorAll('#timeline-lanes .lane.\(kind)'), e => e.dataset.effect).join(',')"
    }
    let timelineShows = { (step: Int) in
      "document.getElementById('timeline').dataset.shown === '\(step)' && \(InspectorPageQuery.shown(step))"
    }
    let run = try InspectorBrowser.run([
      .open(url),
      .wait(timelineShows(1)),
      .eval(lanes("started")),
      // Clicking an effect shows the step that started it.
      .eval("document.querySelector('#timeline-lanes .lane[data-effect=\"2\"] .bar').click()"),
      .wait(timelineShows(modelStep)),
      .eval(lanes("started")),
      .eval(lanes("running-at")),
      // The keyboard still moves through the steps, and the timeline follows.
      .key("ArrowDown"),
      .wait(timelineShows(modelStep + 1)),
      .eval(lanes("started")),
      .eval(lanes("running-at")),
      .eval("document.querySelector('#timeline-lanes .lane[data-effect=\"2\"] .effect-name').textContent"),
      .eval("typeof window.__pwned"),
      .eval("document.querySelectorAll('#timeline img, #timeline script').length"),
      .eval(InspectorPageQuery.text("timeline-source")),
    ])
    XCTAssertNil(run.error, run.error ?? "")
    XCTAssertEqual(run.text(2), oracle.started(at: 1).map(String.init).joined(separator: ","))
    XCTAssertEqual(run.text(5), "2")
    XCTAssertEqual(run.text(6), oracle.running(at: modelStep).map(String.init).joined(separator: ","))
    XCTAssertEqual(run.text(9), oracle.started(at: modelStep + 1).map(String.init).joined(separator: ","))
    XCTAssertEqual(run.text(10), oracle.running(at: modelStep + 1).map(String.init).joined(separator: ","))
    XCTAssertTrue(run.text(10).split(separator: ",").contains("2"), "the model's effect still runs a step later")
    XCTAssertTrue(run.text(11).hasPrefix(#"<img src=x onerror="window.__pwned=1"><script>"#), run.text(11))
    XCTAssertEqual(run.text(12), "undefined")
    XCTAssertEqual(run.text(13), "0")
    XCTAssertEqual(run.text(14), "scan.trace.json")
    XCTAssertEqual(run.dialogs, 0)

    // Without --trace, the trace named like the log beside it is found.
    let (beside, _) = try startInspector(["inspect", log.path], in: folder)
    XCTAssertTrue(beside.outputSoFar.contains(", \(oracle.effectCount) effects from \(trace.path)"), beside.outputSoFar)
  }

  func testATraceThatIsNotOneLeavesTheLogOpenAndSaysWhy() throws {
    let log = folder.appendingPathComponent("counter.jsonl")
    try recordCounterLog(log, ticks: 3, in: folder)
    let broken = folder.appendingPathComponent("broken.trace.json")
    try Data(#"[{"name":"<b>x</b>","ph":}]"#.utf8).write(to: broken)
    let (demo, url) = try startInspector(["inspect", log.path, "--trace", broken.path], in: folder)
    let run = try InspectorBrowser.run([
      .open(url),
      .wait(InspectorPageQuery.shown(1)),
      .wait("document.getElementById('timeline-summary').textContent.startsWith('no timeline')"),
      .eval(InspectorPageQuery.text("timeline-summary")),
      .eval("String(document.getElementById('timeline').hidden)"),
      .eval(InspectorPageQuery.text("step-name")),
    ])
    XCTAssertNil(run.error, run.error ?? "")
    XCTAssertEqual(
      run.text(3), "no timeline: trace \(broken.path) is not valid JSON at byte 25: a value was expected")
    XCTAssertEqual(run.text(4), "false", "the panel shows")
    XCTAssertEqual(run.text(5), "start")
    // Written before the URL: here long since.
    XCTAssertTrue(demo.errorsSoFar.contains("is not valid JSON at byte 25"), demo.errorsSoFar)
    XCTAssertTrue(demo.errorsSoFar.contains("the log opens without the effect timeline"), demo.errorsSoFar)
  }
}

/// The effects of a `StoreTracer` trace as the test reads them itself: the step that started each (its
/// `startedBy`), and whether it still ran when a step's action was reduced (it ended at or after that action's
/// start, or never ended).
private struct TraceOracle {
  private var effects: [(id: Int, startedBy: Int, end: Double?)] = []
  private var actionTimes: [Int: Double] = [:]

  init(_ url: URL) throws {
    let events = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
    for event in events {
      let arguments = event["args"] as? [String: Any] ?? [:]
      let time = event["ts"] as? Double ?? 0
      if event["cat"] as? String == "action", let sequence = arguments["sequence"] as? Int {
        actionTimes[sequence] = time
      }
      if event["cat"] as? String == "effect", event["ph"] as? String == "X", let id = event["tid"] as? Int,
        let startedBy = arguments["startedBy"] as? Int
      {
        let unfinished = arguments["unfinished"] as? Bool ?? false
        effects.append((id, startedBy, unfinished ? nil : time + (event["dur"] as? Double ?? 0)))
      }
    }
    effects.sort { ($0.startedBy, $0.id) < ($1.startedBy, $1.id) }
  }

  var effectCount: Int { effects.count }

  func startingStep(of effect: Int) -> Int? {
    effects.first { $0.id == effect }?.startedBy
  }

  func started(at step: Int) -> [Int] {
    effects.filter { $0.startedBy == step }.map(\.id)
  }

  func running(at step: Int) -> [Int] {
    guard let time = actionTimes[step] else { return [] }
    return effects.filter { $0.startedBy <= step && ($0.end ?? .infinity) >= time }.map(\.id)
  }
}

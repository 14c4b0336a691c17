import Foundation
import XCTest

/// The inspector in a real headless Chromium following a running store (`demo counter --inspect`) — its steps and
/// its timer effect on the timeline — and showing a hostile log as text without running any of it.
final class InspectorLiveAndHostileBrowserTests: XCTestCase {
  private let folder = scratchFolderPath("inspector-live")

  override func setUpWithError() throws {
    try createScratchFolder(folder)
  }

  func testTheLivePageFollowsTheRunAsItSends() throws {
    // 40 ticks 250 ms apart: the page connects while the counter is still counting, even on a busy machine.
    let (demo, url) = try startInspector(["counter", "--to", "40", "--interval", "250", "--inspect"], in: folder)
    let timer = #"#timeline-lanes .lane[data-effect=\"1\"]"#
    let run = try InspectorBrowser.run([
      .open(url),
      .wait("\(InspectorPageQuery.text("mode")) === 'live' && \(InspectorPageQuery.rowCount) > 0"),
      .eval("window.__rowsSeen = document.querySelectorAll('.row').length"),
      .eval(InspectorPageQuery.text("run-state")),
      // More steps arrive without reloading, and the page keeps the newest selected with its state.
      .wait("document.querySelectorAll('.row').length > window.__rowsSeen", timeout: 20),
      .wait("/count: ([3-9]|[1-4][0-9]),/.test(document.getElementById('state').textContent)", timeout: 20),
      .eval(InspectorPageQuery.text("step-name")),
      // The timer's effect, started by step 1, shows on the timeline while it runs: an open-ended bar.
      .wait(
        "\(InspectorPageQuery.text("run-state")) === 'running' && !!document.querySelector('\(timer).running-at .bar.open')",
        timeout: 20),
      .eval(InspectorPageQuery.text("timeline-summary")),
      .wait("\(InspectorPageQuery.text("run-state")) === 'the run ended'", timeout: 30),
      .eval(InspectorPageQuery.text("count")),
      .eval(
        "Array.from(document.querySelectorAll('.row')).sort((a, b) => a.dataset.pos - b.dataset.pos).pop().dataset.n"),
      .eval(InspectorPageQuery.text("dropped")),
      // Its end reaches the page with the run's last event: the bar closes at the last step.
      .wait("!!document.querySelector('\(timer) .bar:not(.open)')"),
      .eval("document.querySelector('\(timer) .bar').title"),
    ])
    XCTAssertNil(run.error, run.error ?? "")
    XCTAssertEqual(run.text(3), "running")
    XCTAssertEqual(run.text(6), "tick")
    XCTAssertTrue(run.text(8).contains("running at it: 1 · 1 effect in steps"), run.text(8))
    XCTAssertEqual(run.text(10), "41 steps")  // start and 40 ticks
    XCTAssertEqual(run.text(11), "41")
    XCTAssertEqual(run.text(12), "")
    XCTAssertTrue(run.text(14).hasPrefix("effect 1, started by step 1, ran to step 41 ("), run.text(14))
    let result = demo.waitForExit(timeout: 30)
    XCTAssertEqual(result.status, 0, result.errors)
  }

  func testAHostileLogRendersAsTextAndNothingInItRuns() throws {
    let log = folder.appendingPathComponent("scan.jsonl")
    let recorded = try DemoProcess.run(["scan", "--record", log.path], in: folder, timeout: 120)
    XCTAssertEqual(recorded.status, 0, recorded.errors)
    // Strings the replay decodes (the model's content type, the uploaded ids) become markup, quotes, control
    // characters and a 1 MB field; one more line's action name is markup too.
    let script = #"<script>window.__pwned = 1; document.title = 'pwned'</script>"#
    let image = #"<img src=x onerror=\"window.__pwned = 2\">"#
    let hostile = script + image + #"\"'`\u0001\u001b[31m"#
    var text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
    text = text.replacingOccurrences(
      of: #""contentType":"model/vnd.usdz+zip""#, with: #""contentType":""# + hostile + #"""#)
    text = text.replacingOccurrences(
      of: #""uploadCompleted":{"_0":["preview-"#,
      with: #""uploadCompleted":{"_0":[""# + String(repeating: "A", count: 1_000_000) + script + "preview-")
    let count = text.split(separator: "\n").count
    text += #"{"seq":\#(count),"origin":"sent","time":99,"action":{"<img src=x onerror=window.__pwned=3>":{}}}"# + "\n"
    try Data(text.utf8).write(to: log)

    let (_, url) = try startInspector(["inspect", log.path], in: folder)
    let succeeded =
      "Array.from(document.querySelectorAll('.row')).find(r => r.querySelector('.name').textContent === 'reconstructionSucceeded')"
    let completed =
      "Array.from(document.querySelectorAll('.row')).find(r => r.querySelector('.name').textContent === 'upload.uploadCompleted')"
    let run = try InspectorBrowser.run([
      .open(url),
      .wait(InspectorPageQuery.shown(1)),
      .type("reconstructionSucceeded", into: "#filter"),
      .wait("!!(\(succeeded))"),
      .eval("(\(succeeded)).click()"),
      .wait("document.getElementById('state').textContent.includes('window.__pwned = 1')"),
      .eval(InspectorPageQuery.text("state")),
      .type("uploadCompleted", into: "#filter"),
      .wait("!!(\(completed))"),
      .eval("(\(completed)).click()"),
      .wait("document.getElementById('action').textContent.length > 1000000", timeout: 30),
      .type("img", into: "#filter"),
      .wait("\(InspectorPageQuery.rowCount) === 1"),
      .eval(InspectorPageQuery.rowNames),
      .eval("typeof window.__pwned"),
      .eval("document.title"),
      .eval("document.querySelectorAll('img, script:not([src]), main script').length"),
    ])
    XCTAssertNil(run.error, run.error ?? "")
    XCTAssertTrue(
      run.text(6).contains(#"contentType: "<script>window.__pwned = 1; document.title = 'pwned'</script><img"#),
      String(run.text(6).prefix(3_000)))
    XCTAssertEqual(run.text(13), "<img src=x onerror=window.__pwned=3>")
    XCTAssertEqual(run.text(14), "undefined")
    XCTAssertEqual(run.text(15), "Unidirectional inspector")
    XCTAssertEqual(run.text(16), "0")
    XCTAssertEqual(run.dialogs, 0)
  }
}

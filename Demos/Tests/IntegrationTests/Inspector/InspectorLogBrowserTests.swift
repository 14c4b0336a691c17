import Foundation
import XCTest

/// `demo inspect FILE` in a real headless Chromium: selecting steps, filtering by action name, and a log replayed
/// through a changed reducer opening at its first divergence.
final class InspectorLogBrowserTests: XCTestCase {
  private let folder = scratchFolderPath("inspector-log")

  override func setUpWithError() throws {
    try createScratchFolder(folder)
  }

  func testSelectingAStepWithTheKeyboardShowsItsStateAndTheDiffItMade() throws {
    let log = folder.appendingPathComponent("counter.jsonl")
    try recordCounterLog(log, ticks: 3, in: folder)
    let (_, url) = try startInspector(["inspect", log.path], in: folder)
    let run = try InspectorBrowser.run([
      .open(url),
      .wait(InspectorPageQuery.shown(1)),  // opens at step 1: start
      .eval(InspectorPageQuery.text("step-name")),
      .key("ArrowDown"), .key("ArrowDown"),
      .wait(InspectorPageQuery.shown(3)),  // the second tick
      .eval(InspectorPageQuery.text("step-name")),
      .eval(InspectorPageQuery.text("state")),
      .eval("Array.from(document.querySelectorAll('#diff .added, #diff .removed'), e => e.textContent).join('\\n')"),
      .eval(InspectorPageQuery.text("count")),
    ])
    XCTAssertNil(run.error, run.error ?? "")
    XCTAssertEqual(run.text(2), "start")
    XCTAssertEqual(run.text(6), "tick")
    XCTAssertTrue(run.text(7).contains("count: 2"), run.text(7))
    XCTAssertTrue(run.text(7).contains("isRunning: true"), run.text(7))
    XCTAssertEqual(run.text(8), "-   count: 1,\n+   count: 2,")
    XCTAssertEqual(run.text(9), "4 steps")
  }

  func testFilteringByActionNameListsOnlyTheMatchingSteps() throws {
    let log = folder.appendingPathComponent("counter.jsonl")
    try recordCounterLog(log, ticks: 5, in: folder)
    let (_, url) = try startInspector(["inspect", log.path], in: folder)
    let run = try InspectorBrowser.run([
      .open(url),
      .wait(InspectorPageQuery.shown(1)),
      .eval(InspectorPageQuery.rowNames),
      .type("TICK", into: "#filter"),
      .wait("\(InspectorPageQuery.text("count")) === '5 matching steps' && \(InspectorPageQuery.rowCount) === 5"),
      .eval(InspectorPageQuery.rowNames),
      .eval("Array.from(document.querySelectorAll('.row .n'), e => e.textContent).join(',')"),
      .type("start", into: "#filter"),
      .wait("\(InspectorPageQuery.text("count")) === '1 matching steps' && \(InspectorPageQuery.rowCount) === 1"),
      .eval(InspectorPageQuery.rowNames),
    ])
    XCTAssertNil(run.error, run.error ?? "")
    XCTAssertEqual(run.text(2), "start|tick|tick|tick|tick|tick")
    XCTAssertEqual(run.text(5), "tick|tick|tick|tick|tick")
    XCTAssertEqual(run.text(6), "2,3,4,5,6")
    XCTAssertEqual(run.text(9), "start")
  }

  func testAChangedReducerOpensAtTheFirstDivergenceWithBothStatesSideBySide() throws {
    let log = folder.appendingPathComponent("counter.jsonl")
    try recordCounterLog(log, ticks: 3, in: folder)
    let (_, url) = try startInspector(["inspect", log.path, "--changed-counter"], in: folder)
    let run = try InspectorBrowser.run([
      .open(url),
      .wait(InspectorPageQuery.shown(2)),  // the first tick: the changed counter adds 2
      .eval(InspectorPageQuery.text("mode")),
      .eval("document.getElementById('divergence').hidden"),
      .eval("document.getElementById('recorded-column').hidden"),
      .eval(InspectorPageQuery.text("recorded-state")),
      .eval(InspectorPageQuery.text("state")),
      .eval(InspectorPageQuery.text("recorded-diff")),
      .eval(InspectorPageQuery.text("step-match")),
    ])
    XCTAssertNil(run.error, run.error ?? "")
    XCTAssertEqual(run.text(2), "changed")
    XCTAssertEqual(run.results[3] as? Bool, false)
    XCTAssertEqual(run.results[4] as? Bool, false)
    XCTAssertTrue(run.text(5).contains("count: 1,"), run.text(5))
    XCTAssertTrue(run.text(6).contains("count: 2,"), run.text(6))
    XCTAssertTrue(run.text(7).contains("-   count: 1,+   count: 2,"), run.text(7))
    XCTAssertEqual(run.text(8), "✗ differs from the recording")
  }
}

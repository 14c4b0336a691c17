import Foundation
import Reminders
import Unidirectional
import XCTest

/// Runs `demo reminders` as a person would, twice on one file: the second run starts from what the first saved.
final class DemoRemindersCommandTests: XCTestCase {
  func testTheListIsSortedAndKeptInItsFileAcrossRuns() throws {
    let folder = try makeScratchFolder("demo-reminders")
    let file = folder.appendingPathComponent("reminders.json")

    let first = try DemoProcess.run(["reminders", "--file", file.path], in: folder)
    XCTAssertEqual(first.status, 0, first.output + first.errors)
    XCTAssertEqual(first.errors, "")
    assertLinesInOrder(
      first,
      [
        "reminders: \(file.path)", "loaded:", "  (no reminders)",
        "added a flagged reminder:", "  [ ] Buy milk ⚑",
        "completed “Buy milk”:", "  [ ] Call the plumber", "  [ ] Water the plants", "  [x] Buy milk ⚑",
        "alert: Delete “Water the plants”?",
        "deleted “Water the plants” (the alert dismissed itself):", "  [ ] Call the plumber", "  [x] Buy milk ⚑",
        "saved: 2 reminders in reminders.json",
      ])
    let saved = try JSONDecoder().decode(IdentifiedArrayOf<Reminder>.self, from: Data(contentsOf: file))
    XCTAssertEqual(saved.map(\.title), ["Call the plumber", "Buy milk"])

    let second = try DemoProcess.run(["reminders", "--file", file.path], in: folder)
    XCTAssertEqual(second.status, 0, second.output + second.errors)
    assertLinesInOrder(
      second,
      ["loaded:", "  [ ] Call the plumber", "  [x] Buy milk ⚑", "saved: 4 reminders in reminders.json"])
  }

  func testAnUnknownOptionPrintsTheUsageAndExits2() throws {
    let folder = try makeScratchFolder("demo-reminders-usage")
    let result = try DemoProcess.run(["reminders", "--colour", "red"], in: folder)
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(result.errors.contains("usage: demo reminders [OPTIONS]"), result.errors)
  }
}

import CaptureSession
import Foundation
import XCTest

final class CaptureSessionScriptTests: XCTestCase {
  func testTheStandardScriptGoesTheWholeWay() {
    let script = CaptureSessionScript.standard(
      shotCount: 2, stepDelay: .milliseconds(200), shotInterval: .milliseconds(50))
    XCTAssertEqual(
      script.steps,
      [
        .init(delay: .milliseconds(200), event: .state(.ready)),
        .init(delay: .milliseconds(200), event: .state(.detecting)),
        .init(delay: .milliseconds(200), event: .state(.capturing)),
        .init(delay: .milliseconds(50), event: .shot),
        .init(delay: .milliseconds(50), event: .shot),
        .init(delay: .milliseconds(200), event: .state(.finishing)),
        .init(delay: .milliseconds(200), event: .state(.completed)),
      ])
    XCTAssertEqual(script.shotCount, 2)
  }

  func testParsingATextScript() throws {
    let script = try CaptureSessionScript(
      parsing: """
        # a session that loses tracking
        200ms ready
          0.5s\tdetecting   # tabs and comments are fine
        1 capturing

        100MS shot
        0 failed Tracking   lost
        """)
    XCTAssertEqual(
      script.steps,
      [
        .init(delay: .milliseconds(200), event: .state(.ready)),
        .init(delay: .milliseconds(500), event: .state(.detecting)),
        .init(delay: .seconds(1), event: .state(.capturing)),
        .init(delay: .milliseconds(100), event: .shot),
        .init(delay: .zero, event: .state(.failed(reason: "Tracking lost"))),
      ])
    XCTAssertEqual(
      script.steps.map(\.event.description), ["ready", "detecting", "capturing", "shot", "failed Tracking lost"])
  }

  func testAFailureWithoutAReasonGetsOne() throws {
    let script = try CaptureSessionScript(parsing: "0 failed")
    XCTAssertEqual(script.steps.map(\.event), [.state(.failed(reason: "The capture session failed."))])
  }

  func testBadScriptsNameTheLine() {
    let cases: [(String, CaptureSessionScript.ParseError)] = [
      (
        "200ms ready\nsoon detecting",
        .invalidLine(number: 2, reason: "\"soon\" is not a delay (e.g. 200ms or 0.2s, at most 3600s)")
      ),
      ("-1 ready", .invalidLine(number: 1, reason: "\"-1\" is not a delay (e.g. 200ms or 0.2s, at most 3600s)")),
      ("3601s ready", .invalidLine(number: 1, reason: "\"3601s\" is not a delay (e.g. 200ms or 0.2s, at most 3600s)")),
      ("nan ready", .invalidLine(number: 1, reason: "\"nan\" is not a delay (e.g. 200ms or 0.2s, at most 3600s)")),
      ("# only\n\n200ms", .invalidLine(number: 3, reason: "an event must follow the delay")),
      (
        "1 capturin",
        .invalidLine(
          number: 1,
          reason: "unknown event \"capturin\" (expected initializing, ready, detecting, capturing, finishing, "
            + "completed, failed REASON or shot)")
      ),
      ("1 shot 2", .invalidLine(number: 1, reason: "unexpected \"2\" after shot")),
      ("# nothing but comments\n\n", .empty),
      ("", .empty),
    ]
    for (text, expected) in cases {
      XCTAssertThrowsError(try CaptureSessionScript(parsing: text), text.debugDescription) { error in
        XCTAssertEqual(error as? CaptureSessionScript.ParseError, expected, text.debugDescription)
      }
    }
    XCTAssertEqual(
      CaptureSessionScript.ParseError.invalidLine(number: 4, reason: "an event must follow the delay").description,
      "Script line 4: an event must follow the delay.")
  }

  func testReadingAScriptFile() throws {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("session.script")
    try Data("0.1 ready\n".utf8).write(to: file)
    XCTAssertEqual(
      try CaptureSessionScript(contentsOf: file).steps, [.init(delay: .milliseconds(100), event: .state(.ready))])

    let missing = folder.appendingPathComponent("missing.script")
    XCTAssertThrowsError(try CaptureSessionScript(contentsOf: missing)) { error in
      XCTAssertEqual(
        error as? CaptureSessionScript.ParseError, .unreadable(path: missing.path, reason: "the file cannot be read"))
    }
    let binary = folder.appendingPathComponent("binary.script")
    try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: binary)
    XCTAssertThrowsError(try CaptureSessionScript(contentsOf: binary)) { error in
      XCTAssertEqual(
        error as? CaptureSessionScript.ParseError, .unreadable(path: binary.path, reason: "it is not UTF-8 text"))
    }
  }

  private func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capture-script-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder
  }
}

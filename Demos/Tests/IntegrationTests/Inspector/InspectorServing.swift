import Foundation
import XCTest

/// A `demo` command that prints an inspector URL (`demo inspect FILE`, `demo counter --inspect`), running until
/// the test ends.
///
/// ```swift
/// let (demo, url) = try startInspector(["inspect", log.path], in: folder)
/// ```
extension XCTestCase {
  func startInspector(_ arguments: [String], in folder: URL) throws -> (DemoProcess, URL) {
    let demo = try DemoProcess(arguments, in: folder)
    addTeardownBlock {
      demo.interrupt()
      _ = demo.waitForExit(timeout: 15)
    }
    guard demo.waitForOutput(containing: "inspector: http://127.0.0.1:", timeout: 30) else {
      let result = demo.waitForExit(timeout: 15)
      throw InspectorBrowser.Failure(description: "no inspector URL:\n\(result.output)\n\(result.errors)")
    }
    let output = demo.outputSoFar
    guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("inspector: http://127.0.0.1:") }),
      let url = URL(string: String(line.dropFirst("inspector: ".count)))
    else { throw InspectorBrowser.Failure(description: "no inspector URL in:\n\(output)") }
    return (demo, url)
  }

  /// Records a counter log of `steps` ticks to `log`.
  func recordCounterLog(_ log: URL, ticks: Int, in folder: URL) throws {
    let recorded = try DemoProcess.run(
      ["counter", "--record", log.path, "--to", "\(ticks)", "--interval", "0"], in: folder)
    XCTAssertEqual(recorded.status, 0, recorded.errors)
  }
}

/// Page expressions the tests read.
enum InspectorPageQuery {
  /// The text of the element with `id`.
  static func text(_ id: String) -> String { "document.getElementById('\(id)').textContent" }
  /// The visible rows' action names, joined by `|`.
  static let rowNames = "Array.from(document.querySelectorAll('.row .name'), e => e.textContent).join('|')"
  /// How many rows are in the list's window.
  static let rowCount = "document.querySelectorAll('.row').length"
  /// Whether step `n` is shown.
  static func shown(_ n: Int) -> String { "document.body.dataset.shown === '\(n)'" }
}

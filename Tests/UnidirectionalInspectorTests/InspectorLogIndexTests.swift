import Foundation
import XCTest

@testable import UnidirectionalInspector

/// How many lines the inspector's log index takes in: it keeps 12 bytes per line, so a file of nothing but newlines
/// (100 MB: 100,000,000 lines) once grew it to 1.42 GB. Past the limit a log is refused, naming the limit, before
/// anything is indexed.
final class InspectorLogIndexTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("log-index-\(UUID().uuidString)")
  private static let header = #"{"format":"unidirectional-action-log","version":1,"feature":"F","initialState":{}}"#

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private func write(_ name: String, _ data: Data) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try data.write(to: url)
    return url
  }

  /// A header and 10,000,001 empty lines: one line past the standard limit.
  func testALogOfEmptyLinesPastTheStandardLimitIsRefusedNamingIt() throws {
    let url = try write("empty-lines.jsonl", Data((Self.header + "\n").utf8) + Data(repeating: 0x0A, count: 10_000_001))
    XCTAssertThrowsError(try InspectorLogIndex(url: url)) { error in
      XCTAssertEqual(
        "\(error)", "cannot read \(url.path): more than 10000000 action lines, the most the inspector indexes")
    }
    XCTAssertEqual(InspectorLogIndex.standardMaxSteps, 10_000_000)
  }

  /// Up to the limit a log opens whatever its lines hold (empty ones too); one line more is refused with the typed
  /// error. A last line without its newline counts.
  func testALogOpensUpToTheLimitAndOneLineMoreIsRefused() throws {
    let header = Data((Self.header + "\n").utf8)
    let action = Data(#"{"seq":1,"origin":"sent","time":0,"action":{"tick":{}}}"#.utf8)
    let cases: [(String, Data, steps: Int)] = [
      ("empty-lines", header + Data(repeating: 0x0A, count: 50_000), 50_000),
      ("unterminated", header + Data(repeating: 0x0A, count: 49_999) + action, 50_000),
      ("header-only", Data(Self.header.utf8), 0),
    ]
    for (name, data, steps) in cases {
      let url = try write("\(name).jsonl", data)
      let index = try InspectorLogIndex(url: url, maxSteps: 50_000)
      XCTAssertEqual(index.stepCount, steps, name)
      XCTAssertThrowsError(try InspectorLogIndex(url: url, maxSteps: steps - 1), name) { error in
        XCTAssertEqual(error as? InspectorError, .tooManyLines(path: url.path, limit: steps - 1), name)
      }
    }
    let url = try write("unterminated.jsonl", cases[1].1)
    XCTAssertEqual(try InspectorLogIndex(url: url, maxSteps: 50_000).summary(of: 50_000).name, "tick")
  }

  /// Any step number is answered, the ones outside the log with an empty line and a "?" row: `line` once computed
  /// `number + 1`, which overflows for Int.max.
  func testAStepNumberOutsideTheLogIsAnEmptyRowWhateverItsValue() throws {
    let action = #"{"seq":1,"origin":"sent","time":2.5,"action":{"tick":{}}}"#
    let index = try InspectorLogIndex(url: try write("one.jsonl", Data((Self.header + "\n" + action + "\n").utf8)))
    XCTAssertEqual(index.summary(of: 1), InspectorStepSummary(n: 1, name: "tick", origin: "sent", time: 2.5))
    XCTAssertEqual(index.line(0).count, Self.header.utf8.count)
    for number in [Int.max, Int.max - 1, 2, -1, Int.min] {
      XCTAssertEqual(index.line(number).count, 0, "\(number)")
      XCTAssertEqual(index.summary(of: number), InspectorStepSummary(n: number, name: "?", origin: "?", time: 0))
    }
  }
}

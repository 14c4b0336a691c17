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

/// A step whose line does not replay is an error the same way however often, and in whatever order, the page asks
/// for the steps around it. Found by `Scripts/fuzz inspector-log`: a failed replay left the model's replay past the
/// bad line, so asking for that step again answered "there is no step N" (404), and the step after it replayed the
/// next line in its place (a sequence-gap error naming the wrong line).
final class InspectorLogModelStepErrorTests: XCTestCase {
  private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("step-error-\(UUID().uuidString)")

  override func setUpWithError() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private func log(_ lines: [String]) throws -> URL {
    let url = folder.appendingPathComponent("log.jsonl")
    try Data(lines.joined(separator: "\n").utf8).write(to: url)
    return url
  }

  private let header =
    #"{"format":"unidirectional-action-log","version":1,"feature":"Counter","initialState":{"count":0}}"#
  private let increment = #"{"seq":1,"origin":"sent","time":0,"action":{"increment":{}}}"#

  private func cannotShowReason(_ model: InspectorLogModel<Counter>, _ step: Int) -> String? {
    do {
      _ = try model.step(step)
      return nil
    } catch {
      guard case let .cannotShow(number, reason) = error, number == step else { return "\(error)" }
      return reason
    }
  }

  func testAStepThatDoesNotReplayFailsAlikeEveryTimeItIsAskedFor() throws {
    let url = try log([header, increment, #"{"seq":2,"origin":"sent","time":0,"action":{"incr"#])
    for changed in [false, true] {
      let model = try InspectorLogModel(contentsOf: url, reducer: Counter(), recordedReducer: changed ? Counter() : nil)
      _ = model.info()  // a changed model looks for the first divergence here, meeting the bad line first
      let first = try XCTUnwrap(cannotShowReason(model, 2), "step 2 replays")
      XCTAssertTrue(first.hasPrefix("line 3: corrupt or truncated line"), first)
      XCTAssertEqual(cannotShowReason(model, 2), first, "asked again")
      XCTAssertEqual(try model.step(1).n, 1)
      XCTAssertEqual(cannotShowReason(model, 2), first, "asked after going back")
    }
  }

  func testTheStepAfterOneThatDoesNotReplayNamesTheSameLine() throws {
    let url = try log([
      header, increment, #"{"seq":2,"origin":"sent","time":0,"action":{"unknown":{}}}"#,
      #"{"seq":3,"origin":"sent","time":0,"action":{"increment":{}}}"#,
    ])
    let model = try InspectorLogModel(contentsOf: url, reducer: Counter())
    let failed = try XCTUnwrap(cannotShowReason(model, 2))
    XCTAssertTrue(failed.hasPrefix("line 3: unknown action"), failed)
    XCTAssertEqual(cannotShowReason(model, 3), failed, "step 3 cannot be reached past line 3")
  }
}

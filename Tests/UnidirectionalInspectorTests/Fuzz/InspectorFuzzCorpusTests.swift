import Foundation
import XCTest

/// Every committed input of this package's fuzz targets run once through the target's body (the function the
/// fuzzer runs), so a regression of a finding fails here without a fuzzer: a broken property ends the test process
/// with its message (a trap would too). `Scripts/fuzz TARGET --replay` runs the same inputs under the sanitizers.
final class InspectorFuzzCorpusTests: XCTestCase {
  func testTheInspectorLogCorpusReplays() throws {
    let inputs = try FuzzCorpus.inputs(of: "inspector-log")
    XCTAssertFalse(inputs.isEmpty, "the inspector-log corpus is empty")
    for input in inputs { InspectorLogFuzz.fuzz(input.data) }
  }

  func testTheInspectorTraceCorpusReplays() throws {
    let inputs = try FuzzCorpus.inputs(of: "inspector-trace")
    XCTAssertFalse(inputs.isEmpty, "the inspector-trace corpus is empty")
    for input in inputs { InspectorTraceFuzz.fuzz(input.data) }
  }

  func testTheInspectorRequestCorpusReplays() throws {
    let inputs = try FuzzCorpus.inputs(of: "inspector-request")
    XCTAssertFalse(inputs.isEmpty, "the inspector-request corpus is empty")
    for input in inputs { InspectorRequestFuzz.fuzz(input.data) }
  }

  func testTheInspectorLiveCorpusReplays() throws {
    let inputs = try FuzzCorpus.inputs(of: "inspector-live")
    XCTAssertFalse(inputs.isEmpty, "the inspector-live corpus is empty")
    for input in inputs { InspectorLiveFuzz.fuzz(input.data) }
  }
}

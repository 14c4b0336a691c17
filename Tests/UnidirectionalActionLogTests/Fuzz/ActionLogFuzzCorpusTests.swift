import Foundation
import XCTest

/// Every committed input of this package's fuzz targets run once through the target's body (the function the
/// fuzzer runs), so a regression of a finding fails here without a fuzzer: a broken property ends the test process
/// with its message (a trap would too). `Scripts/fuzz TARGET --replay` runs the same inputs under the sanitizers.
final class ActionLogFuzzCorpusTests: XCTestCase {
  func testTheActionLogReplayCorpusReplays() throws {
    let inputs = try FuzzCorpus.inputs(of: "action-log-replay")
    XCTAssertFalse(inputs.isEmpty, "the action-log-replay corpus is empty")
    for input in inputs { ActionLogReplayFuzz.fuzz(input.data) }
  }
}

import Foundation
import XCTest

/// Every committed input of this package's fuzz targets run once through the target's body (the function the
/// fuzzer runs), so a regression of a finding fails here without a fuzzer: a broken property ends the test process
/// with its message (a trap would too). `Scripts/fuzz TARGET --replay` runs the same inputs under the sanitizers.
final class HTTPClientFuzzCorpusTests: XCTestCase {
  func testTheHttpResponseCorpusReplays() throws {
    let inputs = try FuzzCorpus.inputs(of: "http-response")
    XCTAssertFalse(inputs.isEmpty, "the http-response corpus is empty")
    for input in inputs { HTTPResponseFuzz.fuzz(input.data) }
  }

  func testTheSocketEngineCorpusReplays() throws {
    let inputs = try FuzzCorpus.inputs(of: "socket-engine")
    XCTAssertFalse(inputs.isEmpty, "the socket-engine corpus is empty")
    for input in inputs { SocketEngineFuzz.fuzz(input.data) }
  }

  func testTheRequestBodyFileCorpusReplays() throws {
    let inputs = try FuzzCorpus.inputs(of: "request-body-file")
    XCTAssertFalse(inputs.isEmpty, "the request-body-file corpus is empty")
    for input in inputs { RequestBodyFileFuzz.fuzz(input.data) }
  }

  func testTheRedirectCorpusReplays() throws {
    let inputs = try FuzzCorpus.inputs(of: "redirect")
    XCTAssertFalse(inputs.isEmpty, "the redirect corpus is empty")
    for input in inputs { RedirectFuzz.fuzz(input.data) }
  }
}

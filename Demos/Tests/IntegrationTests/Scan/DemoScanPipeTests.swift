import Foundation
import XCTest

/// `demo | head -1`: a reader that stops after the first line must not kill the host before it cleans up.
final class DemoScanPipeTests: XCTestCase {
  /// The reader exits after one line, so every later write of the demo fails with EPIPE: the demo ignores SIGPIPE,
  /// runs its flow to the end, exits 0 and removes its temporary working folder (before, SIGPIPE killed it on its
  /// second line with the folder left behind, exit 141 through the pipe).
  func testADemoPipedIntoAReaderThatStopsAfterOneLineExitsCleanlyAndLeavesNothingBehind() throws {
    let folder = try makeScratchFolder("demo-pipe")
    let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)

    let result = try DemoProcess.run([], in: folder, environment: ["TMPDIR": temporary.path], pipedInto: "head -n 1")

    XCTAssertEqual(result.status, 0, "exit status through `pipefail` (141: killed by SIGPIPE); \(result.errors)")
    XCTAssertEqual(result.lines.filter { !$0.isEmpty }.count, 1, result.output)
    XCTAssertTrue(result.output.hasPrefix("scan: working in \(temporary.path)/unidirectional-scan-"), result.output)
    XCTAssertEqual(result.errors, "")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], "nothing is left behind")
  }
}

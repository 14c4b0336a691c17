import Foundation
import XCTest

/// `--help` wherever a person types it: before a command it lists every command, after one it prints that
/// command's usage; both on standard output with exit 0.
final class DemoHelpTests: XCTestCase {
  private let folder = scratchFolderPath("demo-help")

  override func setUpWithError() throws {
    try createScratchFolder(folder)
  }

  func testHelpAfterACommandPrintsThatCommandsUsageAndExits0() throws {
    let cases: [([String], String, String)] = [
      (["generate", "--help"], "usage: demo generate --prompt TEXT [OPTIONS]", "--prompt TEXT"),
      (["generate", "--prompt", "kite", "-h"], "usage: demo generate --prompt TEXT [OPTIONS]", "--samples N"),
      (["scan", "--help"], "usage: demo [scan] [OPTIONS]", "--timeout SECONDS"),
      (["--out", "x", "--help"], "usage: demo [scan] [OPTIONS]", "--api URL"),
      (["counter", "--help"], "usage: demo counter [OPTIONS]", "--force"),
      (["counter", "--help"], "usage: demo counter [OPTIONS]", "--inspect"),
      (["scan", "--help"], "usage: demo [scan] [OPTIONS]", "--inspect"),
      (
        ["inspect", "--help"], "usage: demo inspect FILE [--trace TRACE] [--changed-counter] [--port N]",
        "--changed-counter"
      ),
      (
        ["inspect", "--help"], "usage: demo inspect FILE [--trace TRACE] [--changed-counter] [--port N]",
        "--trace TRACE"
      ),
      (
        ["replay", "--help"],
        "usage: demo replay FILE [--verify] [--quiet] [--until N | --export-state N OUT | --step | --emit-test OUT] "
          + "[--changed-counter]",
        "--emit-test OUT"
      ),
    ]
    for (arguments, usage, option) in cases {
      let result = try DemoProcess.run(arguments, in: folder)
      XCTAssertEqual(result.status, 0, "\(arguments): \(result.errors)")
      XCTAssertEqual(result.errors, "", "\(arguments)")
      XCTAssertTrue(result.output.hasPrefix(usage + "\n"), "\(arguments): \(result.output)")
      XCTAssertTrue(result.output.contains(option), "\(arguments): \(result.output)")
      XCTAssertFalse(result.output.contains("commands:"), "only this command's usage: \(result.output)")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing ran")
  }

  func testHelpBeforeACommandListsEveryCommand() throws {
    for arguments in [["--help"], ["-h"], ["help"]] {
      let result = try DemoProcess.run(arguments, in: folder)
      XCTAssertEqual(result.status, 0, result.errors)
      XCTAssertTrue(result.output.hasPrefix("usage: demo [COMMAND] [OPTIONS]\n"), result.output)
      for command in ["scan (default)", "counter", "generate", "replay", "inspect"] {
        XCTAssertTrue(result.output.contains("  \(command): "), "\(command) in \(result.output)")
      }
      // The live inspector is an option of every store-running command.
      XCTAssertTrue(result.output.contains("      --inspect "), result.output)
      XCTAssertTrue(result.output.contains("      --changed-counter "), result.output)
      // `demo inspect` takes the run's trace for its effect timeline.
      XCTAssertTrue(result.output.contains("      --trace TRACE "), result.output)
    }
  }
}

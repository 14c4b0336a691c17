import Features
import Foundation
import XCTest

/// `demo upload FILE --resumable --api URL` against the real backend: the connection drops twice, the progress bar
/// says so, the stored file is the file, and the token never shows.
final class DemoUploadCommandTests: BackendStackTestCase {
  func testAResumableUploadSurvivesTwoDroppedConnectionsAndSaysSo() async throws {
    let stack = try Self.backend.stack()
    let file = try TestFile.random(size: 20_000_000, in: folder)

    let result = try DemoProcess.run(
      ["upload", file.path, "--resumable", "--api", stack.apiURL.absoluteString, "--drop-after", "6000000,14000000"],
      in: folder, environment: ["UNIDIRECTIONAL_API_TOKEN": stack.token])

    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertFalse((result.output + result.errors).contains(stack.token), "the token is never printed")
    XCTAssertTrue(result.lines.contains("upload: interrupted; the server has 6.0 MB, sending the rest"), result.output)
    XCTAssertTrue(result.lines.contains("upload: interrupted; the server has 14.0 MB, sending the rest"), result.output)
    XCTAssertTrue(result.output.contains("resumed 2×"), result.output)
    let done = try XCTUnwrap(result.lines.first { $0.hasPrefix("done: file id ") }, result.output)
    XCTAssertTrue(done.contains("resumable, interop version 8") && done.contains("2 resumptions"), done)
    let fileID = String(done.dropFirst("done: file id ".count).prefix(36))
    let stored = try await stack.storedFile(key: "uploads/\(fileID).bin", in: folder)
    XCTAssertTrue(TestFile.identical(stored, file), "the backend stored the file unchanged")
  }

  func testWithoutResumableTheFileGoesInOnePlainRequest() throws {
    let stack = try Self.backend.stack()
    let file = try TestFile.random(size: 1_000_000, in: folder)

    let result = try DemoProcess.run(
      ["upload", file.path, "--api", stack.apiURL.absoluteString, "--token", stack.token], in: folder)

    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertTrue(result.output.contains("one plain request"), result.output)
    XCTAssertFalse(result.output.contains("upload resource"), result.output)
  }

  func testBadInvocationsAreRefusedWithUsage() throws {
    for (arguments, message) in [
      (["upload"], "name the FILE to upload"),
      (["upload", "a.bin"], "--api URL is required"),
      (["upload", "a.bin", "--api", "ftp://x"], "--api must be an http or https URL"),
      (["upload", "a.bin", "--api", "http://127.0.0.1:1"], "--api needs a token"),
      (["upload", "a.bin", "--api", "http://127.0.0.1:1", "--token", "t", "--drop-after", "x"], "--drop-after"),
    ] {
      let result = try DemoProcess.run(arguments, in: folder)
      XCTAssertEqual(result.status, 2, "\(arguments)")
      XCTAssertTrue(result.errors.contains(message), "\(arguments): \(result.errors)")
    }
  }

  func testAMissingFileIsAClearFailure() throws {
    let result = try DemoProcess.run(
      ["upload", folder.appendingPathComponent("nope.bin").path, "--api", "http://127.0.0.1:1", "--token", "t"],
      in: folder)
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.errors.contains("cannot read"), result.errors)
  }
}

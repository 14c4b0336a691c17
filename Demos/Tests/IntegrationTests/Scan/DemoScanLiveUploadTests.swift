import Features
import Foundation
import XCTest

/// `demo --api URL` against the real backend (`Demos/Backend/run_stack.py` on 127.0.0.1): the model file the
/// host built arrives byte for byte; the token never shows; a refused token is a clear failure with exit 1.
final class DemoScanLiveUploadTests: BackendStackTestCase {
  override class var usesTestHooks: Bool { false }

  func testTheModelIsUploadedToTheBackendByteForByte() async throws {
    let stack = try Self.backend.stack()
    let out = folder.appendingPathComponent("out")
    let log = folder.appendingPathComponent("live.jsonl")
    let result = try DemoProcess.run(
      ["--api", stack.apiURL.absoluteString, "--out", out.path, "--record", log.path], in: folder,
      environment: ["UNIDIRECTIONAL_API_TOKEN": stack.token])
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertTrue(
      result.output.contains("upload to \(stack.apiURL.absoluteString)/upload-model"), result.output)
    XCTAssertFalse((result.output + result.errors).contains(stack.token), "the token is never printed")
    let logText = try String(contentsOf: log, encoding: .utf8)
    XCTAssertTrue(logText.contains("uploadCompleted"), "the log has the upload")
    XCTAssertFalse(logText.contains(stack.token), "the token never reaches the action log")

    let line = try XCTUnwrap(result.lines.first { $0.hasPrefix("upload: ✓ Upload complete! (id ") }, result.output)
    let fileID = String(line.dropFirst("upload: ✓ Upload complete! (id ".count).dropLast())
    XCTAssertNotNil(UUID(uuidString: fileID), fileID)
    let stored = try await stack.storedFile(key: "uploads/\(fileID).usdz", in: folder)
    let modelPath = try XCTUnwrap(result.lines.first { $0.hasPrefix("model: saved at ") }?.dropFirst(16))
    let model = URL(fileURLWithPath: String(modelPath))
    let sha256 = try SHA256.hash(fileAt: model).hex
    XCTAssertEqual(try SHA256.hash(fileAt: stored).hex, sha256, "the backend stored the model unchanged")
    XCTAssertTrue(result.lines.contains("model: sha256 \(sha256)"), result.output)
    XCTAssertEqual(
      try FileManager.default.attributesOfItem(atPath: stored.path)[.size] as? NSNumber,
      try FileManager.default.attributesOfItem(atPath: model.path)[.size] as? NSNumber)
    XCTAssertNotNil(try? USDZArchive(contentsOf: stored, verifyingChecksums: true))
  }

  func testPrintedChangesAndTheTraceNeverShowTheToken() throws {
    let stack = try Self.backend.stack()
    let trace = folder.appendingPathComponent("live.trace.json")
    let result = try DemoProcess.run(
      [
        "--api", stack.apiURL.absoluteString, "--out", folder.appendingPathComponent("o").path, "--print-changes",
        "--trace", trace.path,
      ],
      in: folder, environment: ["UNIDIRECTIONAL_API_TOKEN": stack.token])
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertTrue(result.output.contains("action: ScanFeature.Action.uploadTapped"), result.output)
    XCTAssertFalse((result.output + result.errors).contains(stack.token), "the token is never printed")
    let traceText = try String(contentsOf: trace, encoding: .utf8)
    XCTAssertTrue(traceText.contains("uploadCompleted"), "the trace has the upload")
    XCTAssertFalse(traceText.contains(stack.token), "the token never reaches the trace")
  }

  func testATokenFromTheCommandLineWorksToo() throws {
    let stack = try Self.backend.stack()
    let result = try DemoProcess.run(
      [
        "scan", "--api", stack.apiURL.absoluteString, "--token", stack.token, "--out",
        folder.appendingPathComponent("o").path,
      ],
      in: folder)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertTrue(result.output.contains("upload: ✓ Upload complete!"), result.output)
    XCTAssertFalse((result.output + result.errors).contains(stack.token))
  }

  /// The token is looked for in one documented order — `--token`, `UNIDIRECTIONAL_API_TOKEN`, `UPLOAD_API_TOKEN`,
  /// `./.unidirectional.local.json`, `~/.config/unidirectional/keys.json` — and found in each: with the right token
  /// in one source and wrong ones in every source after it, the upload succeeds; with a wrong one first, it fails.
  func testTheTokenIsFoundInEverySourceInTheDocumentedOrder() throws {
    let stack = try Self.backend.stack()
    let wrong = "wrong-\(UUID().uuidString)"
    let sources = ["--token", "UNIDIRECTIONAL_API_TOKEN", "UPLOAD_API_TOKEN", "local file", "home file"]
    let script = folder.appendingPathComponent("quick.script")
    try Data("10ms ready\n10ms detecting\n10ms capturing\n10ms shot\n10ms finishing\n10ms completed\n".utf8)
      .write(to: script)

    /// Runs `demo --api` in a fresh folder (also its HOME) with `tokens` placed in those sources.
    func upload(_ tokens: [String: String]) throws -> DemoProcess.Result {
      let place = folder.appendingPathComponent(UUID().uuidString)
      let config = place.appendingPathComponent(".config/unidirectional")
      try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
      var arguments = ["--api", stack.apiURL.absoluteString, "--script", script.path]
      var environment: [String: String] = [:]
      for (source, token) in tokens {
        switch source {
        case "--token": arguments += ["--token", token]
        case "local file":
          try Data(#"{"UPLOAD_API_TOKEN": "\#(token)"}"#.utf8)
            .write(to: place.appendingPathComponent(".unidirectional.local.json"))
        case "home file":
          try Data(#"{"UNIDIRECTIONAL_API_TOKEN": "\#(token)"}"#.utf8)
            .write(to: config.appendingPathComponent("keys.json"))
        default: environment[source] = token
        }
      }
      let result = try DemoProcess.run(arguments, in: place, environment: environment)
      XCTAssertFalse((result.output + result.errors).contains(stack.token), "the token is never printed")
      XCTAssertFalse((result.output + result.errors).contains(wrong), "the token is never printed")
      return result
    }

    for (index, source) in sources.enumerated() {
      var tokens = [source: stack.token]
      for later in sources.dropFirst(index + 1) { tokens[later] = wrong }
      let result = try upload(tokens)
      XCTAssertEqual(result.status, 0, "the token from \(source): \(result.output + result.errors)")
      XCTAssertTrue(result.output.contains("upload: ✓ Upload complete!"), "\(source): \(result.output)")
    }

    var wrongFirst = [sources[1]: wrong]
    for later in sources.dropFirst(2) { wrongFirst[later] = stack.token }
    let refused = try upload(wrongFirst)
    XCTAssertEqual(refused.status, 1, refused.output + refused.errors)
    XCTAssertTrue(
      refused.lines.contains("upload: ✗ Upload failed: The server answered HTTP 401: invalid or missing bearer token"),
      refused.output)
  }

  func testARefusedTokenIsAClearFailure() throws {
    let stack = try Self.backend.stack()
    let wrong = "wrong-\(UUID().uuidString)"
    let result = try DemoProcess.run(
      ["--api", stack.apiURL.absoluteString, "--out", folder.appendingPathComponent("o").path], in: folder,
      environment: ["UNIDIRECTIONAL_API_TOKEN": wrong])
    XCTAssertEqual(result.status, 1, result.output + result.errors)
    XCTAssertTrue(
      result.lines.contains("upload: ✗ Upload failed: The server answered HTTP 401: invalid or missing bearer token"),
      result.output)
    XCTAssertTrue(result.output.contains("done: the scan did not finish"), result.output)
    XCTAssertFalse((result.output + result.errors).contains(wrong))
  }

  func testAServerThatIsDownIsAClearFailure() throws {
    let port = try BackendStack.unusedLoopbackPort()
    let result = try DemoProcess.run(
      ["--api", "http://127.0.0.1:\(port)", "--token", "t", "--out", folder.appendingPathComponent("o").path],
      in: folder)
    XCTAssertEqual(result.status, 1, result.output + result.errors)
    XCTAssertTrue(
      result.output.contains("upload: ✗ Upload failed: Cannot connect to 127.0.0.1:\(port)"), result.output)
  }
}

import Features
import Foundation
import XCTest

/// Runs the built `demo` executable (next to the test bundle) as a person would: `demo generate …`.
final class DemoGenerateCommandTests: XCTestCase {
  private let folder = scratchFolderPath("demo-generate")

  override func setUpWithError() throws {
    try createScratchFolder(folder)
  }

  func testThePreviewBackendWritesRealPNGFiles() throws {
    let out = folder.appendingPathComponent("out")
    let result = try runDemo([
      "generate", "--prompt", "a lighthouse at dawn", "--tags", "watercolor,soft light", "--negative", "blurry",
      "--size", "512x640", "--samples", "2", "--out", out.path,
    ])
    XCTAssertEqual(result.status, 0, result.errors)
    XCTAssertTrue(result.output.contains("prompt: \"a lighthouse at dawn, watercolor, soft light\""), result.output)
    XCTAssertTrue(result.output.contains("status: generated 2 images"), result.output)
    XCTAssertTrue(result.output.contains("done: 2 files in \(out.path)"), result.output)

    let files = try FileManager.default.contentsOfDirectory(at: out, includingPropertiesForKeys: nil)
    XCTAssertEqual(files.count, 2)
    for file in files {
      XCTAssertEqual(file.pathExtension, "png")
      XCTAssertNotNil(UUID(uuidString: file.deletingPathExtension().lastPathComponent), file.lastPathComponent)
      XCTAssertTrue(result.output.contains("saved: \(file.path)"), result.output)
      let size = pngSize(try Data(contentsOf: file))
      XCTAssertEqual(size?.width, 512)
      XCTAssertEqual(size?.height, 640)
    }
  }

  func testInvalidOptionsPrintUsageAndExit2() throws {
    let invalid: [([String], String)] = [
      (["generate", "--prompt", "kite", "--samples", "9"], "--samples must be a whole number from 1 to 8"),
      (["generate", "--prompt", "kite", "--size", "500x500"], "--size must be WxH"),
      (["generate", "--prompt", "kite", "--tags", "a,A"], "--tags: “A” is already a tag."),
      (["generate", "--prompt", "  "], "--prompt is required"),
      (["generate", "--prompt", "kite", "--backend", "dalle"], "--backend must be preview, karlo or openai"),
      (["generate", "--prompt", "kite", "--bogus", "1"], "unknown option --bogus"),
      // A forgotten value: the next option's name is not taken as the prompt.
      (["generate", "--prompt", "--samples", "2"], "option --prompt needs a value"),
      (["generate", "--samples", "2", "--prompt"], "option --prompt needs a value"),
    ]
    for (arguments, message) in invalid {
      let result = try runDemo(arguments)
      XCTAssertEqual(result.status, 2, "\(arguments): \(result.errors)")
      XCTAssertTrue(result.errors.contains(message), "\(arguments): \(result.errors)")
      XCTAssertTrue(result.errors.contains("usage: demo generate --prompt TEXT"), result.errors)
      XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("generated").path))
    }
  }

  func testAMissingKeyIsAClearErrorWithExit1() throws {
    let result = try runDemo(["generate", "--prompt", "kite", "--backend", "karlo"])
    XCTAssertEqual(result.status, 1, result.errors)
    XCTAssertTrue(result.errors.contains("No API key for Karlo: set KARLO_API_KEY in the environment"), result.errors)
  }

  func testTheKarloBackendWithAKeyFromTheEnvironment() async throws {
    let server = try await ImageAPIMockServer.start()
    addTeardownBlock { server.stop() }
    let out = folder.appendingPathComponent("karlo")
    let result = try runDemo(
      [
        "generate", "--prompt", "a kite", "--samples", "2", "--out", out.path, "--backend", "karlo",
        "--base-url", server.base(run: UUID().uuidString).absoluteString, "--delivery", "url",
      ],
      environment: ["KARLO_API_KEY": server.rawKeys[0]])
    XCTAssertEqual(result.status, 0, result.errors)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).count, 2)
    XCTAssertFalse((result.output + result.errors).contains(server.rawKeys[0]))
  }

  func testAServiceFailureExits1WithoutPrintingTheKey() async throws {
    let server = try await ImageAPIMockServer.start()
    addTeardownBlock { server.stop() }
    let secret = "sk-demo-\(UUID().uuidString)"
    let result = try runDemo(
      [
        "generate", "--prompt", "a kite", "--backend", "openai",
        "--base-url", server.base(run: UUID().uuidString, ["fault": "echo-key"]).absoluteString,
      ],
      environment: ["OPENAI_API_KEY": secret])
    XCTAssertEqual(result.status, 1, result.errors)
    XCTAssertTrue(result.output.contains("status: failed: The service refused the API key (HTTP 401"), result.output)
    XCTAssertTrue(result.output.contains("<redacted>"), result.output)
    XCTAssertFalse((result.output + result.errors).contains(secret))
  }

  /// A bad `--out` is found before any request: a paid generation never runs only to have nowhere to go, and the
  /// reason is said in words with the path.
  func testABadOutFolderIsRefusedBeforeAnyRequest() async throws {
    let server = try await ImageAPIMockServer.start()
    addTeardownBlock { server.stop() }
    let blocker = folder.appendingPathComponent("blocker")
    try Data("a file".utf8).write(to: blocker)
    let run = UUID().uuidString
    for out in [blocker, blocker.appendingPathComponent("images")] {
      let result = try runDemo(
        [
          "generate", "--prompt", "a kite", "--backend", "karlo", "--base-url", server.base(run: run).absoluteString,
          "--out", out.path,
        ],
        environment: ["KARLO_API_KEY": server.rawKeys[0]])
      XCTAssertEqual(result.status, 2, result.output + result.errors)
      XCTAssertTrue(
        result.errors.contains(
          "demo generate: --out \(out.path): the images could not be saved there: \(blocker.path) is a file, not a folder"
        ),
        result.errors)
      XCTAssertFalse(result.errors.contains("NSCocoaErrorDomain"), result.errors)
      XCTAssertFalse(result.output.contains("generating"), result.output)
    }
    let requests = try await server.requests(run: run)
    XCTAssertEqual(requests.count, 0, "no request reached the service: \(requests)")
  }

  /// A write that fails midway (here: past a file-size limit, as on a full disk) leaves no partial image: each image
  /// is written under a temporary name and renamed into place, and a failure removes the temporary file and names
  /// the image.
  func testAFailedSaveLeavesNoPartialFileAndNamesTheImage() throws {
    let out = folder.appendingPathComponent("out")
    // A 512×512 preview PNG is about 770 KB; the limit stops the first one after 100 KB.
    let result = try runDemo(
      ["generate", "--prompt", "a kite", "--samples", "2", "--out", out.path], fileSizeLimit: 102_400)
    XCTAssertEqual(result.status, 1, result.output + result.errors)
    let line = try XCTUnwrap(
      result.lines.first { $0.hasPrefix("save failed for image 1 of 2: Could not write \(out.path)/") },
      result.output)
    XCTAssertTrue(line.hasSuffix(".png: file too large"), line)
    XCTAssertTrue(result.lines.contains("  image 2 was not saved either"), result.output)
    XCTAssertFalse(result.output.contains("done:"), result.output)
    let left = try FileManager.default.contentsOfDirectory(atPath: out.path)
    XCTAssertEqual(left, [], "no partial or temporary file is left")
  }

  /// Every image is complete once it has its name: no temporary file is left next to it.
  func testSavedImagesLeaveNoTemporaryFiles() throws {
    let out = folder.appendingPathComponent("out")
    let result = try runDemo(["generate", "--prompt", "a kite", "--samples", "3", "--out", out.path])
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
    XCTAssertEqual(names.count, 3, "\(names)")
    XCTAssertTrue(names.allSatisfy { $0.hasSuffix(".png") && !$0.hasPrefix(".") }, "\(names)")
  }

  // MARK: Running the executable

  /// Runs `demo arguments` in the test's folder (also its `HOME`) with `environment` added (see ``DemoProcess``).
  private func runDemo(
    _ arguments: [String], environment: [String: String] = [:], fileSizeLimit: Int? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> DemoProcess.Result {
    try DemoProcess.run(
      arguments, in: folder, environment: environment, fileSizeLimit: fileSizeLimit, file: file, line: line)
  }
}

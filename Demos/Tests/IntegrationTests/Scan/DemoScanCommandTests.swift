import Features
import Foundation
import XCTest

/// Runs the built `demo` executable as a person would: `swift run demo` with no arguments (the scan flow on
/// simulated parts), with bad options, with Ctrl-C in the middle, with a folder of shots and with scripts.
final class DemoScanCommandTests: XCTestCase {
  private let folder = scratchFolderPath("demo-scan")

  override func setUpWithError() throws {
    try createScratchFolder(folder)
  }

  /// `demo` with no arguments: the whole flow, every state change as a line in order, the simulated upload's
  /// progress lines (no carriage returns in a pipe), exit 0; the temporary working folder is gone afterwards.
  func testTheDefaultRunScansModelsAndUploads() throws {
    let temporary = try temporaryDirectory()
    let result = try DemoProcess.run([], in: folder, environment: ["TMPDIR": temporary.path])
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertEqual(result.errors, "")
    let working = try XCTUnwrap(value(after: "scan: working in ", in: result))
    XCTAssertTrue(working.hasPrefix(temporary.path + "/unidirectional-scan-"), working)
    XCTAssertTrue(working.hasSuffix(" (a temporary folder, removed at exit; --out DIR keeps the files)"), working)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], "nothing is left behind")
    assertLinesInOrder(
      result,
      [
        "scan: working in ",
        "scan: capture simulator (standard script, drawn shots), model simulator, simulated upload",
        "capture: initializing", "capture: ready", "capture: detecting the object", "capture: capturing",
        "capture: shot 1: shot-001.png (", "capture: shot 8: shot-008.png (", "capture: finishing",
        "capture: completed with 8 shots, offering \"Create 3D model\"", "→ Create 3D model",
        "capture: released (the session is gone; its screen can't be shown)", "model: reconstructing from 8 shots",
        "model: 1/10 steps  10%", "model: 10/10 steps  100%", "model: ready: model-", "model: sha256 ",
        "model: saved at ", "→ Upload", "upload: Uploading to server...", "upload: 0 B / ",
        "upload: 169.6 KB / 169.6 KB  100%", "upload: ✓ Upload complete! (id preview-",
        "done: model uploaded; every effect finished or cancelled",
      ])
    XCTAssertFalse(result.output.contains("\r"), "plain lines when standard output is not a terminal")
    XCTAssertEqual(result.lines.filter { $0.hasPrefix("capture: shot ") }.count, 8)
    let uploadLines = result.lines.filter { $0.hasPrefix("upload: ") && $0.contains(" / ") }
    XCTAssertGreaterThanOrEqual(uploadLines.count, 5, "\(uploadLines)")
    for line in uploadLines {
      XCTAssertNotNil(
        line.range(
          of: #"^upload: [0-9.]+ (B|KB) / 169\.6 KB  [0-9]+%  (— B|[0-9.]+ (B|KB|MB))/s$"#, options: .regularExpression),
        line)
    }

    XCTAssertTrue(try XCTUnwrap(value(after: "model: saved at ", in: result)).hasPrefix(temporary.path))
  }

  /// The working folder is removed however the run ends: a failed capture, Ctrl-C.
  func testTheTemporaryFolderIsRemovedAfterAFailureAndAfterCtrlC() throws {
    let temporary = try temporaryDirectory()
    let dark = folder.appendingPathComponent("dark.script")
    try Data("20ms ready\n20ms detecting\n20ms failed Not enough light\n".utf8).write(to: dark)
    let failed = try DemoProcess.run(["--script", dark.path], in: folder, environment: ["TMPDIR": temporary.path])
    XCTAssertEqual(failed.status, 1, failed.output + failed.errors)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], failed.output)

    let slow = folder.appendingPathComponent("slow.script")
    try Data("20ms ready\n20ms detecting\n20ms capturing\n20ms shot\n60s shot\n".utf8).write(to: slow)
    let demo = try DemoProcess(["--script", slow.path], in: folder, environment: ["TMPDIR": temporary.path])
    XCTAssertTrue(demo.waitForOutput(containing: "capture: shot 1:", timeout: 30), "the capture never started")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path).count, 1, "in use meanwhile")
    demo.interrupt()
    let interrupted = demo.waitForExit(timeout: 10)
    XCTAssertEqual(interrupted.status, 130, interrupted.output + interrupted.errors)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], interrupted.output)
  }

  func testInvalidOptionsPrintUsageAndExit2() throws {
    let emptyShots = folder.appendingPathComponent("empty-shots")
    try FileManager.default.createDirectory(at: emptyShots, withIntermediateDirectories: true)
    let badScript = folder.appendingPathComponent("bad.script")
    try Data("200ms ready\n1 capturin\n".utf8).write(to: badScript)
    let existing = folder.appendingPathComponent("existing.jsonl")
    try Data("keep\n".utf8).write(to: existing)
    let invalid: [([String], String)] = [
      (["--bogus"], "unknown option --bogus"),
      (["scan", "--shots"], "option --shots needs a value"),
      (["scan", "extra"], "unexpected argument extra"),
      (["--api", "ftp://example.com"], "--api must be an http or https URL, not ftp://example.com"),
      (
        ["--api", "http://127.0.0.1:9"],
        "--api needs a token: pass --token, or UNIDIRECTIONAL_API_TOKEN in the environment, or UPLOAD_API_TOKEN in "
          + "the environment, or \"UNIDIRECTIONAL_API_TOKEN\" in /"
      ),
      (["--token", "t0k3n-not-shown"], "--token needs --api"),
      (["--timeout", "5"], "--timeout needs --api"),
      (["--api", "http://127.0.0.1:9", "--token", "t0k3n-not-shown", "--timeout", "0"], "--timeout must be seconds"),
      (["--record", existing.path], "--record: \(existing.path) already exists; pass --force to replace it"),
      (["--force"], "--force needs --record FILE"),
      (["--shots", folder.appendingPathComponent("missing").path], "--shots: Cannot read the shot folder missing"),
      (["--shots", emptyShots.path], "--shots: The shot folder empty-shots has no images"),
      (["--script", badScript.path], "--script: Script line 2: unknown event \"capturin\""),
      (["--out", ""], "--out can't be empty"),
    ]
    for (arguments, message) in invalid {
      let result = try DemoProcess.run(arguments, in: folder)
      XCTAssertEqual(result.status, 2, "\(arguments): \(result.errors)")
      XCTAssertTrue(result.errors.contains(message), "\(arguments): \(result.errors)")
      XCTAssertTrue(result.errors.contains("usage: demo [scan] [OPTIONS]"), result.errors)
      XCTAssertTrue(result.errors.contains("--api URL"), result.errors)
      XCTAssertEqual(result.output, "", "\(arguments): nothing runs")
      XCTAssertFalse((result.output + result.errors).contains("t0k3n-not-shown"))
    }
    XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "keep\n")
  }

  /// Shots are checked before the run: a named pipe is refused at once (it would block the capture forever), a
  /// text file named `.jpg` is no image, and an unreadable image is named.
  func testShotsThatAreNoImagesOrCannotBeReadAreRefusedByName() throws {
    let shots = folder.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
    try PreviewImageRenderer.png(prompt: "mug", index: 1, width: 32, height: 24)
      .write(to: shots.appendingPathComponent("IMG_1.png"))

    func refusal(_ file: URL, _ message: String) throws {
      let result = try DemoProcess.run(["--shots", shots.path], in: folder, timeout: 20)
      XCTAssertEqual(result.status, 2, result.output + result.errors)
      XCTAssertTrue(result.errors.hasPrefix("demo scan: --shots: \(message)\n"), result.errors)
      XCTAssertEqual(result.output, "", "nothing ran")
      try FileManager.default.removeItem(at: file)
    }
    let pipe = shots.appendingPathComponent("IMG_2.png")
    XCTAssertEqual(mkfifo(pipe.path, 0o644), 0)
    try refusal(pipe, "Cannot read the shot image \(pipe.path): it is a named pipe (FIFO), not a regular file.")

    let text = shots.appendingPathComponent("IMG_3.jpg")
    try Data("not a photo\n".utf8).write(to: text)
    try refusal(text, "The shot image \(text.path) is not a JPEG image: its first bytes match no image format.")

    let unreadable = shots.appendingPathComponent("IMG_4.png")
    #if os(Linux)
      // Unreadable even for root: reading /proc/self/mem at offset 0 fails with EIO.
      try FileManager.default.createSymbolicLink(atPath: unreadable.path, withDestinationPath: "/proc/self/mem")
      try refusal(unreadable, "Cannot read the shot image \(unreadable.path): input/output error.")
    #else
      try XCTSkipIf(getuid() == 0, "root reads every file")
      try Data(PNGEncoder.signature).write(to: unreadable)
      XCTAssertEqual(chmod(unreadable.path, 0), 0)
      try refusal(unreadable, "Cannot read the shot image \(unreadable.path): permission denied.")
    #endif
  }

  /// A capture script is outside input: its failure reason is printed with control characters escaped, in the run
  /// and when its action log is replayed.
  func testTextFromAScriptIsPrintedWithControlCharactersEscaped() throws {
    let script = folder.appendingPathComponent("loud.script")
    try Data("20ms ready\n20ms failed \u{1B}[31mred\u{1B}]0;owned\u{07} light\n".utf8).write(to: script)
    let log = folder.appendingPathComponent("loud.jsonl")
    let result = try DemoProcess.run(["--script", script.path, "--record", log.path], in: folder)
    XCTAssertEqual(result.status, 1, result.output + result.errors)
    XCTAssertTrue(
      result.lines.contains(#"capture: failed: \u{1B}[31mred\u{1B}]0;owned\u{7} light"#), result.output)
    XCTAssertFalse(hasControlCharacters(result.output + result.errors), result.output)

    let replay = try DemoProcess.run(["replay", log.path], in: folder)
    XCTAssertEqual(replay.status, 0, replay.output + replay.errors)
    XCTAssertTrue(replay.output.contains(#"\u{1B}[31mred\u{1B}]0;owned\u{7} light"#), replay.output)
    XCTAssertFalse(hasControlCharacters(replay.output + replay.errors), replay.output)
  }

  /// An unresponsive upload server: `--timeout` bounds the silence, and the status says what the host is waiting
  /// for once every byte is sent, instead of sitting at 100%.
  func testAnUnresponsiveServerIsNamedWhileWaitedForAndTimesOut() throws {
    let server = try LoopbackStubServer()
    addTeardownBlock { server.stop() }
    let started = Date()
    let result = try DemoProcess.run(
      ["--api", "http://127.0.0.1:\(server.port)", "--token", "t", "--timeout", "2"], in: folder, timeout: 30)
    XCTAssertEqual(result.status, 1, result.output + result.errors)
    XCTAssertLessThan(Date().timeIntervalSince(started), 25, "the timeout bounded the wait")
    assertLinesInOrder(
      result,
      [
        "upload: Uploading to server...", "upload: 169.6 KB / 169.6 KB  100%",
        "upload: all 169.6 KB sent; waiting for 127.0.0.1:\(server.port) to answer "
          + "(the upload fails after 2 s of silence)",
        "upload: ✗ Upload failed: 127.0.0.1:\(server.port) did not answer in time.",
        "done: the scan did not finish",
      ])
    XCTAssertGreaterThanOrEqual(server.bytesReceived, 169_600, "the whole model was sent")
  }

  /// Ctrl-C in the middle of the capture (a script whose next shot is a minute away, so the signal certainly
  /// lands while the session runs): the session's subscription is cancelled, the host says so and exits with 130,
  /// promptly.
  func testCtrlCCancelsEveryEffectAndExits130() throws {
    let script = folder.appendingPathComponent("slow.script")
    try Data("20ms ready\n20ms detecting\n20ms capturing\n20ms shot\n60s shot\n20ms finishing\n20ms completed\n".utf8)
      .write(to: script)
    let out = folder.appendingPathComponent("out")
    let log = folder.appendingPathComponent("interrupted.jsonl")
    let demo = try DemoProcess(["--script", script.path, "--out", out.path, "--record", log.path], in: folder)
    XCTAssertTrue(demo.waitForOutput(containing: "capture: shot 1:", timeout: 30), "the capture never started")
    let interruptedAt = Date()
    demo.interrupt()
    let result = demo.waitForExit(timeout: 10)
    XCTAssertLessThan(Date().timeIntervalSince(interruptedAt), 5, "the demo exits promptly after Ctrl-C")
    XCTAssertEqual(result.status, 130, result.output + result.errors)
    XCTAssertTrue(
      result.lines.contains("interrupted: cancelled 1 running effect; no effect is left running"), result.output)
    XCTAssertFalse(result.output.contains("capture: shot 2"), result.output)
    XCTAssertFalse(result.output.contains("→ Create 3D model"), result.output)
    XCTAssertFalse(result.output.contains("done:"), result.output)
    let images = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("images").path)
    XCTAssertEqual(images, ["shot-001.png"])

    // The log of the interrupted run is complete up to the interruption and replays.
    XCTAssertTrue(result.lines.contains { $0.hasPrefix("recorded ") && $0.contains(log.path) }, result.output)
    let replay = try DemoProcess.run(["replay", log.path, "--verify", "--quiet"], in: folder)
    XCTAssertEqual(replay.status, 0, replay.output + replay.errors)
    XCTAssertTrue(replay.output.contains("every state matches the recording"), replay.output)
  }

  /// Ctrl-C during the default run, wherever it lands: exit 130 and no effect left running.
  func testCtrlCDuringTheDefaultRunExits130() throws {
    let demo = try DemoProcess(["--out", folder.appendingPathComponent("out").path], in: folder)
    XCTAssertTrue(demo.waitForOutput(containing: "capture: capturing", timeout: 30), "the capture never started")
    demo.interrupt()
    let result = demo.waitForExit(timeout: 10)
    XCTAssertEqual(result.status, 130, result.output + result.errors)
    XCTAssertNotNil(
      result.output.range(
        of: #"\ninterrupted: cancelled [0-9]+ running effects?; no effect is left running\n$"#,
        options: .regularExpression),
      result.output)
  }

  /// `--record FILE` writes the run's action log; `demo replay FILE --verify` rebuilds every recorded state.
  func testARecordedRunReplaysToTheSameStates() throws {
    let log = folder.appendingPathComponent("scan.jsonl")
    let result = try DemoProcess.run(
      ["--record", log.path, "--out", folder.appendingPathComponent("o").path], in: folder)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    let recorded = try XCTUnwrap(
      result.lines.first { $0.hasPrefix("recorded ") && $0.contains(" actions to \(log.path)") }, result.output)
    let count = try XCTUnwrap(Int(recorded.split(separator: " ")[1]))
    XCTAssertGreaterThan(count, 30)
    let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.count, count + 1, "a header, then one line per action")
    XCTAssertTrue(lines[0].contains(#""feature":"ScanFeature""#), String(lines[0]))

    let replay = try DemoProcess.run(["replay", log.path, "--verify"], in: folder)
    XCTAssertEqual(replay.status, 0, replay.output + replay.errors)
    XCTAssertTrue(replay.output.contains("ScanFeature.Action.capture(CaptureSessionFeature.Action.createModelTapped)"))
    XCTAssertTrue(replay.output.contains("ScanFeature.Action.uploadTapped"), replay.output)
    XCTAssertTrue(
      replay.lines.contains("done: \(count) steps replayed; every state matches the recording"), replay.output)
  }

  func testAFolderOfImagesBecomesTheShots() throws {
    let shots = folder.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
    for index in 1...3 {
      try PreviewImageRenderer.png(prompt: "mug", index: index, width: 32, height: 24)
        .write(to: shots.appendingPathComponent("IMG_\(index).png"))
    }
    try Data("notes".utf8).write(to: shots.appendingPathComponent("notes.txt"))
    let out = folder.appendingPathComponent("out")
    let result = try DemoProcess.run(["--shots", shots.path, "--out", out.path], in: folder)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    assertLinesInOrder(
      result,
      [
        "scan: capture simulator (standard script, shots from \(shots.path))", "capture: shot 1: shot-001.png (",
        "capture: shot 3: shot-003.png (", "capture: completed with 3 shots", "model: ready:",
        "upload: ✓ Upload complete!",
      ])
    XCTAssertFalse(result.output.contains("capture: shot 4"), result.output)
    let model = URL(fileURLWithPath: try XCTUnwrap(value(after: "model: saved at ", in: result)))
    XCTAssertEqual(model.deletingLastPathComponent().standardizedFileURL.path, out.standardizedFileURL.path)
    XCTAssertEqual(try SHA256.hash(fileAt: model).hex, value(after: "model: sha256 ", in: result))
    let archive = try USDZArchive(contentsOf: model, verifyingChecksums: true)
    XCTAssertEqual(archive.entries.map(\.name), ["scene.usda"] + (1...3).map { "textures/shot-00\($0).png" })
    XCTAssertEqual(try checkWithPython(model), "4 scene.usda")
    let images = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("images").path)
    XCTAssertEqual(images.sorted(), ["shot-001.png", "shot-002.png", "shot-003.png"])
  }

  /// A script with a step a real session would never report: the host shows the refusal, the session stays
  /// where it was, and the run still completes.
  func testAScriptedIllegalEventIsRefusedAndShown() throws {
    let script = folder.appendingPathComponent("skip.script")
    try Data(
      """
      20ms ready
      20ms capturing   # skips detecting: refused
      20ms detecting
      20ms capturing
      20ms shot
      20ms finishing
      20ms completed
      20ms shot        # after completed: never delivered
      """.utf8
    ).write(to: script)
    let result = try DemoProcess.run(
      ["--script", script.path, "--out", folder.appendingPathComponent("o").path], in: folder)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    assertLinesInOrder(
      result,
      [
        "scan: capture simulator (script skip.script, drawn shots)", "capture: ready",
        "capture: refused an event: The session is ready and cannot skip ahead to capturing; the next step is detecting.",
        "capture: detecting the object", "capture: capturing", "capture: shot 1: shot-001.png",
        "capture: completed with 1 shot,", "upload: ✓ Upload complete!",
      ])
    XCTAssertFalse(result.output.contains("capture: shot 2"), result.output)
  }

  func testAScriptedFailureEndsTheRunWithExit1() throws {
    let script = folder.appendingPathComponent("dark.script")
    try Data("20ms ready\n20ms detecting\n20ms failed Not enough light\n".utf8).write(to: script)
    let result = try DemoProcess.run(
      ["--script", script.path, "--out", folder.appendingPathComponent("o").path], in: folder)
    XCTAssertEqual(result.status, 1, result.output + result.errors)
    assertLinesInOrder(
      result,
      [
        "capture: ready", "capture: detecting the object", "capture: failed: Not enough light",
        "done: the scan did not finish",
      ])
    XCTAssertFalse(result.output.contains("→ Create 3D model"), result.output)
  }

  /// A server that echoes the bearer token in its error: whatever the upload client passes on, the host prints the
  /// token as `<redacted>`.
  func testATokenEchoedByTheServerIsNeverPrinted() throws {
    let secret = "secret-\(UUID().uuidString)"
    let server = try LoopbackStubServer { head in
      let authorization = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("authorization:") } ?? ""
      let body = #"{"message": "refused \#(authorization.dropFirst(14).trimmingCharacters(in: .whitespaces))"}"#
      return "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        + "Connection: close\r\n\r\n" + body
    }
    addTeardownBlock { server.stop() }
    let result = try DemoProcess.run(
      ["--api", "http://127.0.0.1:\(server.port)", "--token", secret], in: folder, timeout: 30)
    XCTAssertEqual(result.status, 1, result.output + result.errors)
    XCTAssertTrue(result.output.contains("upload: ✗ Upload failed: "), result.output)
    XCTAssertTrue(result.output.contains("refused Bearer <redacted>"), result.output)
    XCTAssertFalse((result.output + result.errors).contains(secret), result.output)
  }

  // MARK: Helpers

  /// A fresh folder for the demo's `TMPDIR`, inside the test's folder.
  private func temporaryDirectory() throws -> URL {
    let temporary = folder.appendingPathComponent("tmp-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    return temporary
  }

  /// The rest of the first output line starting with `prefix`.
  private func value(after prefix: String, in result: DemoProcess.Result) -> String? {
    result.lines.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
  }

  /// Opens `model` with Python's `zipfile` (an independent ZIP reader): every file intact, stored, its data
  /// 64-byte aligned. Returns "<file count> <first file>".
  private func checkWithPython(_ model: URL) throws -> String {
    let check = """
      import struct, sys, zipfile
      archive = zipfile.ZipFile(sys.argv[1])
      assert archive.testzip() is None, "a file does not match its CRC"
      with open(sys.argv[1], "rb") as raw:
          for info in archive.infolist():
              assert info.compress_type == zipfile.ZIP_STORED, info.filename
              raw.seek(info.header_offset)
              name_length, extra_length = struct.unpack("<HH", raw.read(30)[26:30])
              assert (info.header_offset + 30 + name_length + extra_length) % 64 == 0, info.filename
      print(len(archive.infolist()), archive.namelist()[0])
      """
    let process = Process()
    process.executableURL = try TestPython.required()
    process.arguments = ["-c", check, model.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "python's zipfile refused the model")
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

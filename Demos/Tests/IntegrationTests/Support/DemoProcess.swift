import Foundation
import XCTest

/// The built `demo` executable run as a child process, as a person would run it: arguments, a working folder, extra
/// environment variables and optional standard input; its output collected as it arrives, so a test can wait for a
/// line, interrupt it (SIGINT, as Ctrl-C does), and read how it ended. Every wait is bounded.
///
/// ```swift
/// let result = try DemoProcess.run(["replay", log.path, "--verify"], in: folder)
/// XCTAssertEqual(result.status, 0, result.output + result.errors)
/// ```
final class DemoProcess: @unchecked Sendable {
  /// How a run ended.
  struct Result {
    /// The exit status (130 after Ctrl-C, 2 for invalid options).
    var status: Int32
    /// Everything written to standard output.
    var output: String
    /// Everything written to standard error.
    var errors: String

    /// The output's lines.
    var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
  }

  /// Why a run could not be made.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The `demo` executable of the build the tests run from: found by walking up from the test bundle (and the test
  /// process's executable) to the `debug` folder of the scratch path in use.
  static let executable: URL? = {
    let starts = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])]
    for start in starts {
      var folder = start.standardizedFileURL
      for _ in 0..<6 {
        let candidate = folder.appendingPathComponent("demo")
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
          FileManager.default.isExecutableFile(atPath: candidate.path)
        {
          return candidate
        }
        folder = folder.deletingLastPathComponent()
      }
    }
    return nil
  }()

  /// Environment variables the demo reads that a developer's shell (or the test runner) might have set: removed for
  /// every run; `UNIDIRECTIONAL_CONTEXT` is set to `live`.
  static let clearedVariables = [
    "UNIDIRECTIONAL_API_TOKEN", "UPLOAD_API_URL", "UPLOAD_API_TOKEN",
    "KARLO_API_KEY", "OPENAI_API_KEY", "KARLO_BASE_URL", "OPENAI_BASE_URL", "OPENAI_IMAGE_MODEL",
    "IMAGE_GENERATION_BACKEND",
    // The test runner's own markers: the demo must not take itself for a test process.
    "XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier",
  ]

  private let process = Process()
  private let output = Collector()
  private let errors = Collector()

  /// Starts `demo arguments` in `directory` with this process's environment minus ``clearedVariables``, with
  /// `UNIDIRECTIONAL_CONTEXT=live` and `HOME` set to `directory` (so a developer's
  /// `~/.config/unidirectional/keys.json` never reaches a test), then `environment` on top; its stdin holds
  /// `standardInput` (nothing if nil). With `fileSizeLimit` (bytes, a multiple of 512) it runs under that limit
  /// (`ulimit -f`): a write past it fails as on a full disk. With `pipedInto` (a shell command, e.g. `head -1`) its
  /// standard output goes through that command, whose output is collected; the exit status is the demo's unless
  /// it is 0 and the command's is not (bash's `pipefail`; a demo killed by SIGPIPE gives 141).
  init(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:], standardInput: Data? = nil,
    fileSizeLimit: Int? = nil, pipedInto reader: String? = nil
  ) throws {
    guard let executable = Self.executable else {
      throw Failure(description: "the demo executable was not built next to the tests (swift build --build-tests)")
    }
    if let reader {
      process.executableURL = URL(fileURLWithPath: "/bin/bash")
      process.arguments = ["-c", "set -o pipefail; \"$0\" \"$@\" | \(reader)", executable.path] + arguments
    } else if let fileSizeLimit {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", "ulimit -f \(fileSizeLimit / 512) && exec \"$0\" \"$@\"", executable.path] + arguments
    } else {
      process.executableURL = executable
      process.arguments = arguments
    }
    process.currentDirectoryURL = directory
    var variables = ProcessInfo.processInfo.environment
    for name in Self.clearedVariables { variables[name] = nil }
    variables["UNIDIRECTIONAL_CONTEXT"] = "live"
    variables["HOME"] = directory.path
    variables.merge(environment) { $1 }
    process.environment = variables
    let outputPipe = Pipe()
    let errorPipe = Pipe()
    process.standardOutput = outputPipe
    process.standardError = errorPipe
    let input = try standardInput.map(Self.inputFile)
    defer { try? input?.close() }
    process.standardInput = input ?? FileHandle.nullDevice
    try process.run()
    output.drain(outputPipe.fileHandleForReading)
    errors.drain(errorPipe.fileHandleForReading)
  }

  /// `data` in an unlinked temporary file, open for reading: a child's stdin that never blocks the test and never
  /// raises SIGPIPE in it, however the child reads.
  private static func inputFile(_ data: Data) throws -> FileHandle {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("demo-stdin-\(UUID().uuidString)")
    try data.write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    return try FileHandle(forReadingFrom: url)
  }

  /// Runs `demo arguments` to its end (at most `timeout` seconds, then it is killed and the test fails).
  static func run(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:], standardInput: Data? = nil,
    fileSizeLimit: Int? = nil, pipedInto reader: String? = nil, timeout: TimeInterval = 60,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> Result {
    let demo = try DemoProcess(
      arguments, in: directory, environment: environment, standardInput: standardInput, fileSizeLimit: fileSizeLimit,
      pipedInto: reader)
    return demo.waitForExit(timeout: timeout, file: file, line: line)
  }

  /// Waits until a line of standard output contains `text`; false after `timeout` seconds or when the demo exits
  /// without printing it.
  func waitForOutput(containing text: String, timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if output.text.contains(text) { return true }
      if !process.isRunning { return output.text.contains(text) }
      usleep(10_000)
    }
    return false
  }

  /// Standard output so far (the demo may still be running).
  var outputSoFar: String { output.text }
  /// What it has written to standard error so far.
  var errorsSoFar: String { errors.text }

  /// Sends SIGINT, as Ctrl-C does.
  func interrupt() {
    kill(process.processIdentifier, SIGINT)
  }

  /// Waits at most `timeout` seconds for the demo to exit; kills it (and fails the test) if it does not.
  func waitForExit(timeout: TimeInterval, file: StaticString = #filePath, line: UInt = #line) -> Result {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      XCTFail("demo \(process.arguments ?? []) did not exit within \(timeout) s", file: file, line: line)
    }
    process.waitUntilExit()
    return Result(status: process.terminationStatus, output: output.finished(), errors: errors.finished())
  }
}

/// Reads a pipe to its end on a background thread, keeping what arrived so far readable.
private final class Collector: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  func drain(_ handle: FileHandle) {
    Thread { [self] in
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        lock.withLock { data.append(chunk) }
      }
      done.signal()
    }.start()
  }

  /// What arrived so far.
  var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

  /// Everything, once the pipe has closed (at most 10 s after the process ended).
  func finished() -> String {
    // Signalled again for the next caller (a test and its teardown both wait for the exit).
    if done.wait(timeout: .now() + 10) == .success { done.signal() }
    return text
  }
}

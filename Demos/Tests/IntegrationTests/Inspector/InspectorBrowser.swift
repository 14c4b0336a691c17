import Foundation
import XCTest

/// A headless Chromium driven through the DevTools protocol by `Scripts/inspector_browser.py`: a test hands it a
/// list of commands (open a URL, wait for a condition, evaluate, press a key, type) and reads back their results.
///
/// Chromium comes from Debian's package (`Scripts/chromium-env` installs it; `Scripts/test` names it in
/// `UNIDIRECTIONAL_CHROMIUM`). Every wait in the commands is bounded, and so is the whole run.
///
/// ```swift
/// let run = try InspectorBrowser.run([.open(url), .wait("document.body.dataset.shown === '1'"), .eval("document.title")])
/// XCTAssertEqual(run.results[2] as? String, "Unidirectional inspector")
/// ```
enum InspectorBrowser {
  /// One command for the driver.
  enum Command {
    case open(URL)
    case eval(String)
    case wait(String, timeout: Double = 15)
    case key(String)
    case type(String, into: String)
    case screenshot(URL)

    var json: [String: Any] {
      switch self {
      case let .open(url): ["open": url.absoluteString]
      case let .eval(expression): ["eval": expression]
      case let .wait(expression, timeout): ["wait": expression, "timeout": timeout]
      case let .key(key): ["key": key]
      case let .type(text, selector): ["type": text, "into": selector]
      case let .screenshot(url): ["screenshot": url.path, "width": 1400, "height": 820]
      }
    }
  }

  /// What the driver reported.
  struct Run {
    /// One value per command that ran (`NSNull` for commands without one).
    let results: [Any]
    /// Why it stopped early, if it did.
    let error: String?
    /// JavaScript dialogs (`alert`, …) that opened.
    let dialogs: Int
    /// Uncaught exceptions in the page.
    let exceptions: [String]

    /// The result of command `index` as text.
    func text(_ index: Int) -> String { results.indices.contains(index) ? "\(results[index])" : "" }
  }

  struct Failure: Error, CustomStringConvertible { let description: String }

  /// Chromium: `UNIDIRECTIONAL_CHROMIUM`, else `chromium` on `PATH`.
  static func chromium() throws -> String {
    if let configured = ProcessInfo.processInfo.environment["UNIDIRECTIONAL_CHROMIUM"], !configured.isEmpty {
      return configured
    }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/chromium"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw Failure(description: "no chromium on PATH: run Scripts/chromium-env (or Scripts/test), which installs it")
  }

  /// Runs `commands` in a fresh browser; at most `timeout` seconds in all.
  static func run(_ commands: [Command], timeout: TimeInterval = 90) throws -> Run {
    let process = Process()
    process.executableURL = try TestPython.required()
    let script = BackendStack.repositoryRoot.appendingPathComponent("Scripts/inspector_browser.py")
    process.arguments = [script.path, "--chromium", try chromium()]
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(UUID().uuidString).json")
    try JSONSerialization.data(withJSONObject: commands.map(\.json)).write(to: input)
    defer { try? FileManager.default.removeItem(at: input) }
    let inputHandle = try FileHandle(forReadingFrom: input)
    defer { try? inputHandle.close() }
    process.standardInput = inputHandle
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let reader = Thread.detachedRead(output.fileHandleForReading)
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { usleep(20_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      throw Failure(description: "the browser driver did not finish within \(timeout) s")
    }
    process.waitUntilExit()
    let data = reader.wait()
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw Failure(description: "the browser driver printed no JSON: \(String(decoding: data, as: UTF8.self))")
    }
    return Run(
      results: object["results"] as? [Any] ?? [], error: object["error"] as? String,
      dialogs: object["dialogs"] as? Int ?? 0, exceptions: object["exceptions"] as? [String] ?? [])
  }
}

/// Reads a pipe to its end on a thread of its own (so a large output never blocks the child).
private final class PipeReader: @unchecked Sendable {
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }.start()
  }

  func wait() -> Data {
    _ = done.wait(timeout: .now() + 10)
    return data
  }
}

extension Thread {
  fileprivate static func detachedRead(_ handle: FileHandle) -> PipeReader { PipeReader(handle) }
}

import Features
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Runs `Demos/ImageAPIMock/mock_image_api.py` on a free 127.0.0.1 port for one test: started with fresh random
/// keys, probed until it answers, and stopped (stdin closed, then SIGTERM, then SIGKILL) by ``stop()``, which
/// tests register as a teardown block so it runs even when the test fails.
final class ImageAPIMockServer: @unchecked Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// `http://127.0.0.1:PORT`.
  let base: URL
  /// The key the mock's Karlo endpoint accepts.
  let karloKey: ImageAPIKey
  /// The key the mock's OpenAI-compatible endpoint accepts.
  let openAIKey: ImageAPIKey
  /// The raw keys, for tests that check they never leak.
  let rawKeys: [String]

  private let process: Process
  private let input: Pipe

  private init(base: URL, karloKey: String, openAIKey: String, process: Process, input: Pipe) {
    self.base = base
    self.karloKey = ImageAPIKey(karloKey)
    self.openAIKey = ImageAPIKey(openAIKey)
    self.rawKeys = [karloKey, openAIKey]
    self.process = process
    self.input = input
  }

  /// Starts the mock and waits (at most 15 s) until it answers its health probe.
  static func start() async throws -> ImageAPIMockServer {
    let karloKey = "karlo-test-\(UUID().uuidString)"
    let openAIKey = "sk-test-\(UUID().uuidString)"
    let process = Process()
    process.executableURL = try TestPython.required()
    process.arguments = [
      BackendStack.repositoryRoot.appendingPathComponent("Demos/ImageAPIMock/mock_image_api.py").path
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["MOCK_KARLO_API_KEY"] = karloKey
    environment["MOCK_OPENAI_API_KEY"] = openAIKey
    process.environment = environment
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()

    let firstLine = FirstLineReader(output.fileHandleForReading)
    let deadline = ContinuousClock.now.advanced(by: .seconds(15))
    var line: String?
    while line == nil, ContinuousClock.now < deadline, process.isRunning {
      line = firstLine.line
      if line == nil { try await Task.sleep(for: .milliseconds(20)) }
    }
    line = line ?? firstLine.line
    func fail(_ message: String) -> Failure {
      terminate(process, input: input)
      return Failure(description: message)
    }
    guard let line,
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let text = object["base"] as? String, let base = URL(string: text), base.host == "127.0.0.1"
    else {
      throw fail("the image API mock did not report a loopback address within 15 s")
    }
    let server = ImageAPIMockServer(
      base: base, karloKey: karloKey, openAIKey: openAIKey, process: process, input: input)
    while ContinuousClock.now < deadline {
      if (try? await server.get("_mock/health")) != nil { return server }
      try await Task.sleep(for: .milliseconds(20))
    }
    server.stop()
    throw Failure(description: "the image API mock did not answer its health probe within 15 s")
  }

  /// The base URL of one scenario: `run=<run>` plus `options` as path segments (see the mock's documentation).
  func base(run: String, _ options: [String: String] = [:]) -> URL {
    var url = base.appendingPathComponent("run=\(run)")
    for (name, value) in options.sorted(by: { $0.key < $1.key }) {
      url.appendPathComponent("\(name)=\(value)")
    }
    return url
  }

  /// What the mock received for `run`, oldest first.
  func requests(run: String) async throws -> [[String: Any]] {
    let data = try await get("_mock/requests?run=\(run)")
    guard let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
      throw Failure(description: "the mock's request log is not a JSON list")
    }
    return entries
  }

  /// Polls the request log of `run` (at most `timeout`) until `condition` holds.
  func waitForRequests(
    run: String, timeout: Duration = .seconds(10), until condition: ([[String: Any]]) -> Bool
  ) async throws -> [[String: Any]] {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while true {
      let entries = try await requests(run: run)
      if condition(entries) { return entries }
      guard ContinuousClock.now < deadline else {
        throw Failure(
          description: "the mock's log for \(run) did not reach the expected state in \(timeout): \(entries)")
      }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  /// Stops the mock: closes its stdin (it exits on EOF), then escalates if it lingers. Safe to call twice.
  func stop() {
    Self.terminate(process, input: input)
  }

  private static func terminate(_ process: Process, input: Pipe) {
    try? input.fileHandleForWriting.close()
    for signal in [nil, SIGTERM, SIGKILL] as [Int32?] {
      if let signal, process.isRunning { kill(process.processIdentifier, signal) }
      let deadline = Date().addingTimeInterval(3)
      while process.isRunning, Date() < deadline { usleep(10_000) }
      if !process.isRunning { break }
    }
    if !process.isRunning { process.waitUntilExit() }
  }

  private func get(_ path: String) async throws -> Data {
    guard let url = URL(string: base.absoluteString + "/" + path) else { throw Failure(description: "bad path") }
    let (status, data) = try await LoopbackHTTP.send("GET", url)
    guard status == 200 else {
      throw Failure(description: "GET \(path) failed")
    }
    return data
  }
}

/// Reads a pipe on a background thread until its first newline.
private final class FirstLineReader: @unchecked Sendable {
  private let lock = NSLock()
  private var buffer = Data()
  private var done = false

  init(_ handle: FileHandle) {
    let thread = Thread { [self] in
      while true {
        let chunk = handle.availableData
        lock.lock()
        buffer.append(chunk)
        let finished = chunk.isEmpty || buffer.contains(UInt8(ascii: "\n"))
        if finished { done = true }
        lock.unlock()
        if finished { return }
      }
    }
    thread.start()
  }

  /// The first line, once it (or the end of the stream) arrived.
  var line: String? {
    lock.lock()
    defer { lock.unlock() }
    guard done, let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    return String(decoding: buffer[..<newline], as: UTF8.self)
  }
}

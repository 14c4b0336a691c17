import Foundation

/// A server the integration tests run as a child process: it prints one line on standard output once it is ready
/// (its address, as JSON) and exits when its standard input closes; its standard error goes to a log file (a file
/// never fills up and blocks the server the way an unread pipe would), whose tail explains a failed start.
///
/// ```swift
/// let (server, line) = try ChildServer.start(name: "run_stack.py", executable: python, arguments: [script])
/// defer { server.stop() }
/// ```
final class ChildServer: @unchecked Sendable {
  private let name: String
  private let process: Process
  private let stdin: Pipe
  private let stdout: Pipe
  private let logFile: URL
  private let lock = NSLock()
  private var isStopped = false

  private init(name: String, process: Process, stdin: Pipe, stdout: Pipe, logFile: URL) {
    self.name = name
    self.process = process
    self.stdin = stdin
    self.stdout = stdout
    self.logFile = logFile
  }

  deinit {
    stop()
  }

  /// Starts `executable` and waits at most `readyTimeout` seconds for its first line, which it returns.
  ///
  /// - Throws: ``BackendStackError/notStarted(_:)`` with the tail of the server's standard error.
  static func start(
    name: String, executable: URL, arguments: [String], environment: [String: String]? = nil,
    readyTimeout: TimeInterval
  ) throws -> (ChildServer, String) {
    let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).log")
    guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else {
      throw BackendStackError.notStarted("cannot create \(logFile.path)")
    }
    let log = try FileHandle(forWritingTo: logFile)
    defer { try? log.close() }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = log
    try process.run()
    let server = ChildServer(name: name, process: process, stdin: stdin, stdout: stdout, logFile: logFile)
    guard let line = readFirstLine(of: stdout.fileHandleForReading, timeout: readyTimeout) else {
      throw server.failure("\(name) printed no ready line within \(readyTimeout) s")
    }
    return (server, line)
  }

  /// Writes `line` to the server's standard input and returns the next line it prints (its answer), waiting at
  /// most `timeout` seconds.
  func send(_ line: String, timeout: TimeInterval) throws -> String {
    try stdin.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    guard let answer = Self.readFirstLine(of: stdout.fileHandleForReading, timeout: timeout) else {
      throw BackendStackError.badAnswer("\(name) did not answer \(line) within \(timeout) s")
    }
    return answer
  }

  /// Stops the server and returns an error saying `reason`, with the tail of its standard error.
  func failure(_ reason: String) -> BackendStackError {
    let tail = (try? String(contentsOf: logFile, encoding: .utf8)).map { String($0.suffix(2_000)) } ?? ""
    stop()
    return .notStarted("\(reason)\n--- \(name) stderr (tail) ---\n\(tail)")
  }

  /// Closes the server's stdin (it shuts down and exits), then terminates it if it has not exited within
  /// `timeout` seconds, and kills it as a last resort. Safe to call more than once.
  func stop(timeout: TimeInterval = 10) {
    let alreadyStopped = lock.withLock {
      defer { isStopped = true }
      return isStopped
    }
    guard !alreadyStopped else { return }
    try? stdin.fileHandleForWriting.close()
    if !Self.waitForExit(process, timeout: timeout) {
      process.terminate()
      if !Self.waitForExit(process, timeout: 5) {
        kill(process.processIdentifier, SIGKILL)
        _ = Self.waitForExit(process, timeout: 5)
      }
    }
    try? FileManager.default.removeItem(at: logFile)
  }

  /// Polls until `process` has exited or `timeout` seconds have passed; returns whether it exited.
  private static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      if Date() >= deadline { return false }
      usleep(20_000)
    }
    return true
  }

  /// The next line written to `handle`, or nil after `timeout` seconds or at end of file.
  private static func readFirstLine(of handle: FileHandle, timeout: TimeInterval) -> String? {
    let result = LineBox()
    let done = DispatchSemaphore(value: 0)
    let reader = Thread {
      var buffer = Data()
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }  // end of file: the process exited
        buffer.append(chunk)
        if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
          result.set(String(decoding: buffer[..<newline], as: UTF8.self))
          break
        }
        if buffer.count > 64 * 1024 { break }
      }
      done.signal()
    }
    reader.start()
    guard done.wait(timeout: .now() + timeout) == .success else { return nil }
    return result.value
  }
}

/// The line read by the reader thread.
private final class LineBox: @unchecked Sendable {
  private let lock = NSLock()
  private var line: String?

  func set(_ value: String) { lock.withLock { line = value } }
  var value: String? { lock.withLock { line } }
}

import Foundation

/// Starting and stopping the servers the integration tests run as child processes.
///
/// ```swift
/// try process.run()
/// guard let line = ChildProcess.readFirstLine(of: stdout.fileHandleForReading, timeout: 20) else { … }
/// defer { ChildProcess.stop(process, stdin: stdin, timeout: 10) }
/// ```
enum ChildProcess {
  /// Closes `stdin` (the servers exit when it closes), then terminates `process` if it has not exited within
  /// `timeout` seconds, and kills it as a last resort.
  static func stop(_ process: Process, stdin: Pipe, timeout: TimeInterval) {
    try? stdin.fileHandleForWriting.close()
    if waitForExit(process, timeout: timeout) { return }
    process.terminate()
    if waitForExit(process, timeout: 5) { return }
    kill(process.processIdentifier, SIGKILL)
    _ = waitForExit(process, timeout: 5)
  }

  /// Polls until `process` has exited or `timeout` seconds have passed; returns whether it exited.
  static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      if Date() >= deadline { return false }
      usleep(20_000)
    }
    return true
  }

  /// The first line written to `handle`, or nil after `timeout` seconds or at end of file.
  static func readFirstLine(of handle: FileHandle, timeout: TimeInterval) -> String? {
    let result = FirstLineBox()
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
private final class FirstLineBox: @unchecked Sendable {
  private let lock = NSLock()
  private var line: String?

  func set(_ value: String) { lock.withLock { line = value } }
  var value: String? { lock.withLock { line } }
}

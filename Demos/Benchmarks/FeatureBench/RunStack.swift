import Foundation

/// A backend stack for a benchmark: `Demos/Backend/run_stack.py` (or another copy of it, e.g. an older revision)
/// started with its stdin on a pipe, stopped by closing it. Python is the project's `.venv` (`Scripts/python-env`).
///
/// ```swift
/// let stack = try RunStack.start(arguments: ["--test-hooks", "--instances", "3"])
/// defer { stack.stop() }
/// … stack.api, stack.token; try stack.deleteObject(key: "uploads/\(fileID).bin") …
/// ```
final class RunStack {
  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  private struct ReadyLine: Decodable {
    let api: String
    let s3: String
    let bucket: String
    let token: String
  }

  let api: URL
  let s3: URL
  let bucket: String
  let token: String
  private let process: Process
  private let stdin: Pipe

  private init(api: URL, s3: URL, bucket: String, token: String, process: Process, stdin: Pipe) {
    self.api = api
    self.s3 = s3
    self.bucket = bucket
    self.token = token
    self.process = process
    self.stdin = stdin
  }

  /// The repository's root folder (FeatureBench, Benchmarks, Demos, root).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static var python: String {
    ProcessInfo.processInfo.environment["UNIDIRECTIONAL_PYTHON"]
      ?? root.appendingPathComponent(".venv/bin/python3").path
  }

  /// Starts `script` (default: this checkout's run_stack.py) with `arguments`; waits for its ready line (it gives up
  /// after its own timeout).
  static func start(script: URL? = nil, arguments: [String]) throws -> RunStack {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [(script ?? root.appendingPathComponent("Demos/Backend/run_stack.py")).path] + arguments
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    var buffer = Data()
    while buffer.count < 65_536, !buffer.contains(UInt8(ascii: "\n")) {
      let chunk = stdout.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      buffer.append(chunk)
    }
    let line = buffer.prefix { $0 != UInt8(ascii: "\n") }
    guard let ready = try? JSONDecoder().decode(ReadyLine.self, from: line), let api = URL(string: ready.api),
      let s3 = URL(string: ready.s3)
    else {
      try? stdin.fileHandleForWriting.close()
      process.waitUntilExit()
      throw Failure("run_stack.py did not start (run Scripts/python-env first)")
    }
    return RunStack(api: api, s3: s3, bucket: ready.bucket, token: ready.token, process: process, stdin: stdin)
  }

  func stop() {
    try? stdin.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  /// Deletes an object from the stack's S3 (moto), so 200 MB copies do not pile up. moto refuses anonymous requests
  /// for private objects but never checks a signature: a SigV4-shaped header for its default account will do.
  func deleteObject(key: String) throws {
    let authorization =
      "Authorization: AWS4-HMAC-SHA256 Credential=testing/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, "
      + "Signature=0"
    _ = try Self.output(
      of: "curl",
      ["-s", "-f", "-o", "/dev/null", "-X", "DELETE", "-H", authorization, "\(s3.absoluteString)/\(bucket)/\(key)"])
  }

  /// Deletes every object under `prefix` (a `--test-hooks` stack lists them).
  func deleteObjects(prefix: String) throws {
    struct Listing: Decodable { let keys: [String] }
    let query = prefix.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? prefix
    for key in try hook(Listing.self, "test-hooks/objects?prefix=\(query)").keys {
      try deleteObject(key: key)
    }
  }

  /// A test hook's JSON answer (`--test-hooks` stacks), e.g. `test-hooks/memory`.
  func hook<T: Decodable>(_ type: T.Type, _ path: String, method: String = "GET") throws -> T {
    let output = try Self.output(of: "curl", ["-s", "-f", "-X", method, "\(api.absoluteString)/\(path)"])
    return try JSONDecoder().decode(T.self, from: Data(output.utf8))
  }

  /// Runs `executable` to completion; returns its standard output and (when `captureErrors`) standard error.
  /// Throws on a non-zero exit.
  static func run(
    _ executable: String, _ arguments: [String], input: String? = nil, captureErrors: Bool = false
  ) throws -> (standardOutput: String, standardError: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    let errors = Pipe()
    if captureErrors { process.standardError = errors }
    let stdin = Pipe()
    process.standardInput = stdin
    try process.run()
    if let input { try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    // Small outputs: read one pipe after the other without deadlock (the programs write a few hundred bytes).
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = captureErrors ? errors.fileHandleForReading.readDataToEndOfFile() : Data()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure("\(arguments.first ?? executable) exited with \(process.terminationStatus)")
    }
    return (String(decoding: data, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
  }

  /// The standard output of `program` (found on PATH) run with `arguments`.
  static func output(of program: String, _ arguments: [String], input: String? = nil) throws -> String {
    try run("/usr/bin/env", [program] + arguments, input: input).standardOutput
  }
}

import Foundation

/// The Python interpreter tests run their servers and checks with: the project's own environment, never the
/// system's `python3`.
///
/// `Scripts/test` prepares it (`Scripts/python-env`) and names it in `UNIDIRECTIONAL_PYTHON`; a plain `swift test`
/// finds `.venv/bin/python3` in the repository once `Scripts/python-env` has run.
///
/// ```swift
/// let process = Process()
/// process.executableURL = try TestPython.required()
/// process.arguments = ["-c", "print(42)"]
/// ```
enum TestPython {
  static let executable: URL = {
    if let configured = ProcessInfo.processInfo.environment["UNIDIRECTIONAL_PYTHON"], !configured.isEmpty {
      return URL(fileURLWithPath: configured)
    }
    return BackendStack.repositoryRoot.appendingPathComponent(".venv/bin/python3")
  }()

  /// Whether the interpreter exists; tests that need it fail with `missingMessage` otherwise.
  static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

  static var missingMessage: String {
    "No test Python at \(executable.path): run Scripts/python-env (or Scripts/test), which creates .venv/."
  }

  struct Missing: Error, CustomStringConvertible { let description: String }

  /// The interpreter, or ``missingMessage`` as an error a test's set-up throws (the test then fails saying what to
  /// do, instead of a `Process` error about a missing file).
  static func required() throws -> URL {
    guard isAvailable else { throw Missing(description: missingMessage) }
    return executable
  }
}

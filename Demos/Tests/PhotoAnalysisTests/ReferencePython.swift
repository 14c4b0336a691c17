import Foundation

/// The Python interpreter the tests use, by the project's convention.
enum ReferencePython {
  struct Missing: Error, CustomStringConvertible { let description: String }

  static let repository = PhotoFixtures.folder.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// `UNIDIRECTIONAL_PYTHON`, else `<repo>/.venv/bin/python3`, checked to import PIL (Pillow); throws (failing the
  /// test) with what to do when it cannot.
  static func interpreter() throws -> String {
    let configured = ProcessInfo.processInfo.environment["UNIDIRECTIONAL_PYTHON"] ?? ""
    let python = configured.isEmpty ? repository.appendingPathComponent(".venv/bin/python3").path : configured
    guard FileManager.default.isExecutableFile(atPath: python) else {
      throw Missing(
        description: "no test Python at \(python): run Scripts/python-env (or Scripts/test), which creates .venv/ "
          + "with Scripts/test-requirements.txt, or set UNIDIRECTIONAL_PYTHON")
    }
    do {
      _ = try run(python, ["-c", "import PIL"])
    } catch {
      throw Missing(
        description: "\(python) cannot import Pillow (\(error)): run Scripts/python-env, which "
          + "installs the pins of Scripts/test-requirements.txt")
    }
    return python
  }

  /// `UNIDIRECTIONAL_EXIFTOOL`, else `<repo>/.venv/bin/exiftool` (Debian's ExifTool unpacked by
  /// `Scripts/exiftool-env`), checked to run; throws (failing the test) with what to do when it cannot.
  static func exifTool() throws -> String {
    let configured = ProcessInfo.processInfo.environment["UNIDIRECTIONAL_EXIFTOOL"] ?? ""
    let exifTool = configured.isEmpty ? repository.appendingPathComponent(".venv/bin/exiftool").path : configured
    do {
      guard FileManager.default.isExecutableFile(atPath: exifTool) else { throw Missing(description: "not found") }
      _ = try run(exifTool, ["-ver"])
    } catch {
      throw Missing(
        description: "no ExifTool at \(exifTool) (\(error)): run Scripts/exiftool-env (or Scripts/test), which "
          + "unpacks Debian's libimage-exiftool-perl into .venv/exiftool/, or set UNIDIRECTIONAL_EXIFTOOL")
    }
    return exifTool
  }

  /// Runs `python arguments` and returns its standard output; throws with its standard error if it fails.
  static func run(_ python: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Missing(description: "exit \(process.terminationStatus): \(errorText)")
    }
    return String(decoding: data, as: UTF8.self)
  }
}

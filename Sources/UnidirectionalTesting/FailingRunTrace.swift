import Foundation
import Unidirectional

/// Where ``exploreInterleavings(_:replaying:reporter:fileID:filePath:line:column:_:)`` saves the failing run: a
/// store trace with the state after every action (`StoreTracer.instrument(for:recordingStates:)`), which the
/// inspector opens alone as an action log with its effect timeline (`InspectorTraceModel`), and Perfetto too.
///
/// The folder is `UNIDIRECTIONAL_EXPLORATIONS` if set, else `.build/explorations/` of the package whose test called
/// the explorer (found from its `#filePath`), else `unidirectional-explorations/` in the temporary folder. The file
/// is named after the call and the failure (`StaleSearchTests-54-3f2a9c01.trace.json`): the same failure writes the
/// same file again.
///
/// ```swift
/// let url = FailingRunTrace.url(filePath: #filePath, line: #line, failure: "4:1\nresults differ")
/// ```
enum FailingRunTrace {
  /// The file for the failing run of the explorer called at `filePath`:`line`, whose schedule and failures are
  /// `failure`.
  static func url(filePath: StaticString, line: UInt, failure: String) -> URL {
    let source = URL(fileURLWithPath: "\(filePath)")
    let name = "\(source.deletingPathExtension().lastPathComponent)-\(line)-\(hash(failure)).trace.json"
    return folder(near: source).appendingPathComponent(name)
  }

  /// Runs `run` with a tracer writing to `url`, creating its folder — or with none, when the file cannot be made —
  /// and returns the file, or why it could not be written.
  nonisolated(nonsending) static func write(
    to url: URL, _ run: nonisolated(nonsending) (StoreTracer?) async -> Void
  ) async -> Result<URL, StoreTraceError> {
    let tracer: StoreTracer
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      tracer = try StoreTracer(fileURL: url)
    } catch {
      await run(nil)
      return .failure(
        error as? StoreTraceError
          ?? .cannotOpen(path: url.path, reason: "its folder cannot be made: \(error.localizedDescription)"))
    }
    await run(tracer)
    do {
      try tracer.close()
    } catch {
      return .failure(error)
    }
    return .success(url)
  }

  private static func folder(near source: URL) -> URL {
    if let folder = ProcessInfo.processInfo.environment["UNIDIRECTIONAL_EXPLORATIONS"], !folder.isEmpty {
      return URL(fileURLWithPath: folder)
    }
    var directory = source.deletingLastPathComponent()
    while directory.path != "/" {
      if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
        return directory.appendingPathComponent(".build/explorations")
      }
      directory = directory.deletingLastPathComponent()
    }
    return FileManager.default.temporaryDirectory.appendingPathComponent("unidirectional-explorations")
  }

  /// 8 hex digits of FNV-1a: the same text, the same name, on every machine.
  private static func hash(_ text: String) -> String {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      value ^= UInt64(byte)
      value &*= 0x100_0000_01b3
    }
    let hex = String(value & 0xFFFF_FFFF, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }
}

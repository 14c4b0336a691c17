import Foundation

/// The committed corpus of a fuzz target, `Tests/Fuzz/<target>/corpus/` of this package: its seeds (`seed-*`) and
/// the inputs that once crashed it (`crash-*`), which the corpus tests run through the target's body so a
/// regression of any finding fails the test command.
///
/// ```swift
/// for input in try FuzzCorpus.inputs(of: "inspector-trace") { InspectorTraceFuzz.fuzz(input.data) }
/// ```
enum FuzzCorpus {
  /// Every input of `target`'s corpus, by name.
  static func inputs(of target: String) throws -> [(name: String, data: Data)] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fuzz/\(target)/corpus")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
    return try names.sorted().map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) }
  }
}

import Features
import Foundation
import Unidirectional
import UnidirectionalActionLog

/// Where `--record FILE` writes an action log, checked when the options are parsed: an existing file is never
/// replaced unless `--force` says so, and a folder that cannot take the file is reported in words, before anything
/// runs.
///
/// ```swift
/// let destination = try RecordDestination(parser)          // nil without --record
/// let recorder = try destination?.makeRecorder()
/// ```
struct RecordDestination {
  /// The options this reads: `--record FILE` (a value) and `--force` (a flag).
  static let valueOption = "--record"
  static let forceFlag = "--force"
  /// Their lines for a command's usage text.
  static let usage = """
    --record FILE   write an action log of the run, with states (replay it with `demo replay FILE`)
    --force         with --record: replace FILE if it exists (it is refused otherwise)
    """

  /// The log file.
  let url: URL
  /// Whether `--force` allows replacing an existing file.
  let replacesExistingFile: Bool

  /// The destination named by `--record` in `parser`, or nil when it is absent.
  ///
  /// - Throws: a ``UsageError`` when FILE is empty, already exists without `--force` (or is a folder), or its folder
  ///   cannot take it; `--force` without `--record`.
  init?(_ parser: OptionParser) throws(UsageError) {
    let force = parser.flags.contains(Self.forceFlag)
    guard let path = parser.values[Self.valueOption] else {
      if force { throw UsageError("\(Self.forceFlag) needs \(Self.valueOption) FILE") }
      return nil
    }
    guard !path.isEmpty else { throw UsageError("\(Self.valueOption) can't be empty") }
    let url = URL(fileURLWithPath: path)
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
      if isFolder.boolValue { throw UsageError("\(Self.valueOption): \(url.path) is a folder, not a file") }
      if !force {
        throw UsageError(
          "\(Self.valueOption): \(url.path) already exists; pass \(Self.forceFlag) to replace it, or choose another file"
        )
      }
    }
    let folder = url.deletingLastPathComponent()
    if !FileManager.default.fileExists(atPath: folder.path) {
      throw UsageError("\(Self.valueOption): cannot write \(url.path): the folder \(folder.path) does not exist")
    }
    if let problem = FolderAccess.problem(writingInto: folder) {
      throw UsageError("\(Self.valueOption): cannot write \(url.path): \(problem)")
    }
    self.url = url
    self.replacesExistingFile = force
  }

  /// A recorder writing to the file (replacing it when `--force` allowed that) under the feature name `feature`,
  /// with the state after every action (so a replay through a changed reducer shows both states). Without
  /// `--force` the file is created exclusively: one that appeared since the options were checked fails with
  /// ``ActionLogError/fileExists(path:)`` and is left as it was.
  func makeRecorder(feature: String) throws(ActionLogError) -> ActionRecorder {
    try ActionRecorder(fileURL: url, replacingExistingFile: replacesExistingFile, feature: feature, states: true)
  }
}

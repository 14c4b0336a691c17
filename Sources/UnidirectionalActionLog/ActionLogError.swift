import Unidirectional

/// Why an action log could not be written or read. Errors about a line name its line number (the header is
/// line 1); every step before that line has been replayed and is still available.
///
/// ```swift
/// do {
///   while let step = try replay.next() { print(step.number) }
/// } catch {
///   print(error)   // "line 7: corrupt or truncated line: …"
/// }
/// ```
public enum ActionLogError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The log file could not be created or opened.
  case cannotOpen(path: String, reason: String)
  /// A file already exists where the log was to be created, and the recorder was told not to replace it.
  case fileExists(path: String)
  /// Reading the log failed (I/O error).
  case cannotRead(path: String, reason: String)
  /// Writing the log failed (disk full, file closed under the recorder…); actions after it were not written.
  case cannotWrite(path: String, reason: String)
  /// The log is empty: no header line.
  case missingHeader
  /// The header names a format or version this library does not read.
  case unsupportedFormat(line: Int, found: String)
  /// The line is not a complete JSON log line: corrupt, or cut short (e.g. the writer was killed).
  case corruptLine(line: Int, reason: String)
  /// The line's action does not decode as the reducer's `Action` (a log from another version of the feature).
  case unknownAction(line: Int, reason: String)
  /// The header's initial state does not decode as the reducer's `State`.
  case unknownState(line: Int, reason: String)
  /// The recorder could not encode this line's action, so the log cannot be replayed past it.
  case unrecordedAction(line: Int, reason: String)
  /// A line's sequence number is not the one after the previous line's: lines are missing or out of order.
  case sequenceGap(line: Int, expected: UInt64, found: UInt64)
  /// The line is longer than the reader accepts.
  case lineTooLong(line: Int, limit: Int)
  /// The recorder could not encode a value (an action, the initial state); the reason names it.
  case encodingFailed(reason: String)
  /// The recorder is already recording another store.
  case alreadyRecording

  /// What went wrong, starting with `line N:` when it is about a line.
  public var description: String {
    switch self {
    case let .cannotOpen(path, reason): "cannot open action log \(path): \(reason)"
    case let .fileExists(path): "\(path) already exists; it was not replaced"
    case let .cannotRead(path, reason): "cannot read action log \(path): \(reason)"
    case let .cannotWrite(path, reason): "cannot write action log \(path): \(reason)"
    case .missingHeader: "line 1: the action log is empty (no header line)"
    case let .unsupportedFormat(line, found): "line \(line): not a supported action log header: \(found)"
    case let .corruptLine(line, reason): "line \(line): corrupt or truncated line: \(reason)"
    case let .unknownAction(line, reason):
      "line \(line): unknown action (a log from another version of the feature?): \(reason)"
    case let .unknownState(line, reason):
      "line \(line): the initial state does not decode (a log from another version of the feature?): \(reason)"
    case let .unrecordedAction(line, reason): "line \(line): the recorder could not encode this action: \(reason)"
    case let .sequenceGap(line, expected, found):
      "line \(line): sequence number \(found) where \(expected) was expected (lines missing or out of order)"
    case let .lineTooLong(line, limit): "line \(line): longer than \(limit) bytes"
    case let .encodingFailed(reason): "cannot encode for the action log: \(reason)"
    case .alreadyRecording: "this ActionRecorder is already recording a store; create one recorder per store"
    }
  }

  /// The line the error is about, if it is about one.
  public var line: Int? {
    switch self {
    case .missingHeader: 1
    case let .unsupportedFormat(line, _), let .corruptLine(line, _), let .unknownAction(line, _),
      let .unknownState(line, _), let .unrecordedAction(line, _), let .sequenceGap(line, _, _),
      let .lineTooLong(line, _):
      line
    case .cannotOpen, .fileExists, .cannotRead, .cannotWrite, .encodingFailed, .alreadyRecording: nil
    }
  }
}

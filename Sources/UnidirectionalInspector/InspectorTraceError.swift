/// Why a trace could not be shown as the inspector's effect timeline. The log still opens without it.
///
/// ```swift
/// let model = try InspectorLogModel(contentsOf: logURL, reducer: Counter(), trace: traceURL)
/// if let error = model.traceError { print(error) }
/// // trace run.trace.json is not valid JSON at byte 1234: "," was expected
/// ```
public enum InspectorTraceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be opened or read.
  case cannotRead(path: String, reason: String)
  /// The file is not a Chrome Trace Event JSON file; `offset` is the byte where reading stopped.
  case malformed(path: String, offset: Int, reason: String)
  /// The file or what it describes is past the inspector's limits: 1 GiB, 1,000,000 effects, 10,000,000 actions.
  case tooLarge(path: String, reason: String)

  public var description: String {
    switch self {
    case let .cannotRead(path, reason): "cannot read trace \(path): \(reason)"
    case let .malformed(path, offset, reason): "trace \(path) is not valid JSON at byte \(offset): \(reason)"
    case let .tooLarge(path, reason): "trace \(path) is too large for the inspector: \(reason)"
    }
  }
}

import Foundation

/// Why the inspector could not start or answer.
///
/// ```swift
/// do { _ = try InspectorServer(model: model) } catch { print(error) }   // cannot listen on 127.0.0.1: …
/// ```
public enum InspectorError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The listening socket could not be made.
  case cannotListen(reason: String)
  /// The log could not be opened or read.
  case cannotRead(path: String, reason: String)
  /// The log has more action lines than the inspector indexes (its index keeps 12 bytes per line).
  case tooManyLines(path: String, limit: Int)
  /// A step that is not in the log (or no longer kept, in a live run).
  case noSuchStep(Int)
  /// The step could not be replayed or shown.
  case cannotShow(step: Int, reason: String)
  /// The model has no effect timeline (a log opened without a trace, or a trace that could not be read).
  case noTimeline

  public var description: String {
    switch self {
    case let .cannotListen(reason): "cannot listen on 127.0.0.1: \(reason)"
    case let .cannotRead(path, reason): "cannot read \(path): \(reason)"
    case let .tooManyLines(path, limit):
      "cannot read \(path): more than \(limit) action lines, the most the inspector indexes"
    case let .noSuchStep(number): "there is no step \(number)"
    case let .cannotShow(step, reason): "cannot show step \(step): \(reason)"
    case .noTimeline: "no effect timeline: open the log with its trace (--trace FILE)"
    }
  }

  /// The text of `errno` now.
  static var systemReason: String { String(cString: strerror(errno)) }
}

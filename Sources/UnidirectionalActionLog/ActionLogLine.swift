import Foundation
import Unidirectional

/// One action line of a log, as decoded for replay.
///
/// Shaped like the synthesized decoding of the same fields, so replay pays little more than decoding: no
/// optional of the generic action, no `contains` lookups.
struct ActionLogLine<Action: Decodable>: Decodable {
  let sequence: UInt64
  let origin: ActionOrigin
  let seconds: Double
  let action: Action
  let fingerprint: String?
  /// What the reducer read from non-deterministic dependencies (`nil`: nothing, or a version 1 log).
  let reads: ActionLogReads?
  /// What effects read since the line before.
  let effectReads: ActionLogReads?

  init(from decoder: any Decoder) throws {
    typealias Keys = ActionLogLineKeys
    let container = try decoder.container(keyedBy: Keys.self)
    sequence = try container.decode(UInt64.self, forKey: .seq)
    origin = try container.decode(ActionOrigin.self, forKey: .origin)
    seconds = try container.decode(Double.self, forKey: .time)
    do {
      action = try container.decode(Action.self, forKey: .action)
    } catch let DecodingError.keyNotFound(key, context) where key.stringValue == "action" && context.codingPath.isEmpty
    {
      // No action: the recorder marks an action it could not encode; anything else is a corrupt line.
      guard let reason = try container.decodeIfPresent(String.self, forKey: .unencodable) else {
        throw DecodingError.keyNotFound(key, context)
      }
      throw UnrecordedActionFailure(reason: reason)
    } catch {
      // The envelope is fine: it is the action's shape this version of the feature does not know.
      throw ActionDecodingFailure(reason: ActionLogDecoding.reason(error))
    }
    fingerprint = try container.decodeIfPresent(String.self, forKey: .fingerprint)
    reads = try container.decodeIfPresent(ActionLogReads.self, forKey: .reads)
    effectReads = try container.decodeIfPresent(ActionLogReads.self, forKey: .effectReads)
  }
}

/// The keys of an action line. Outside the generic line type: a key type nested in it would be generic too, and
/// its metadata looked up again for every line (measured: a fifth of replay's time).
enum ActionLogLineKeys: String, CodingKey {
  case seq, origin, time, action, unencodable, fingerprint, reads, effectReads
}

/// An action that is well-formed JSON but not one of the reducer's actions.
struct ActionDecodingFailure: Error {
  let reason: String
}

/// A line where the recorder wrote why it could not encode the action, instead of the action.
struct UnrecordedActionFailure: Error {
  let reason: String
}

/// Shared pieces of decoding log lines.
enum ActionLogDecoding {
  /// A one-line explanation of a decoding error: what was wrong, and where.
  static func reason(_ error: any Error) -> String {
    func path(_ codingPath: [any CodingKey]) -> String {
      let keys = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      return keys.isEmpty ? "" : " at \(keys.joined(separator: "."))"
    }
    func path(_ context: DecodingError.Context) -> String { path(context.codingPath) }
    if let error = error as? EncodingError, case let .invalidValue(_, context) = error {
      // Not the value itself: it may be a secret.
      return "invalid value\(path(context.codingPath)): \(context.debugDescription)"
    }
    guard let error = error as? DecodingError else { return String(describing: error) }
    switch error {
    case let .keyNotFound(key, context):
      return "missing key \"\(key.stringValue)\"\(path(context))"
    case let .typeMismatch(type, context):
      return "expected \(type)\(path(context)): \(context.debugDescription)"
    case let .valueNotFound(type, context):
      return "missing \(type) value\(path(context)): \(context.debugDescription)"
    case let .dataCorrupted(context):
      let underlying = context.underlyingError.map { " (\($0))" } ?? ""
      return "\(context.debugDescription)\(path(context))\(underlying)"
    @unknown default:
      return String(describing: error)
    }
  }

  /// `text` shortened for an error message.
  static func excerpt(_ bytes: Data) -> String {
    let text = String(decoding: bytes.prefix(160), as: UTF8.self)
    return bytes.count > 160 ? text + "…" : text
  }
}

/// The state a line carries (`"state"`, written by a recorder made with `states: true`), read only when needed.
struct ActionLogRecordedState<State: Decodable>: Decodable {
  let state: State?
}

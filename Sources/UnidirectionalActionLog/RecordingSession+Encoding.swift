import Foundation
import Unidirectional

// The writer thread's encoding: chunks of recorded actions to canonical JSON lines in the file.
extension RecordingSession {
  /// Encodes and writes a batch of chunks; returns the first error.
  func write(_ batch: [Chunk]) -> ActionLogError? {
    var output: [UInt8] = []
    output.reserveCapacity(256 << 10)
    var encodingError: ActionLogError?
    var actionBytes: [UInt8] = []
    var stateBytes: [UInt8] = []
    for chunk in batch {
      for index in 0..<chunk.count {
        let sequence = chunk.firstSequence + UInt64(index)
        let origin = chunk.origins[index]
        let nanoseconds = chunk.times[index]
        do {
          actionBytes.removeAll(keepingCapacity: true)
          try CanonicalJSONEncoder.encode(chunk.actions[index], appendingTo: &actionBytes)
          var fingerprint: ActionLogFingerprint?
          if fingerprints, let states = chunk.states { fingerprint = try ActionLogFingerprint(of: states[index]) }
          stateBytes.removeAll(keepingCapacity: true)
          if writesStates, let states = chunk.states {
            try CanonicalJSONEncoder.encode(states[index], appendingTo: &stateBytes)
          }
          ActionLogFormat.appendEntry(
            sequence: sequence, origin: origin, nanoseconds: nanoseconds, action: actionBytes,
            fingerprint: fingerprint, state: writesStates ? stateBytes : nil, to: &output)
        } catch {
          let reason = ActionLogDecoding.reason(error)
          ActionLogFormat.appendUnencodable(
            sequence: sequence, origin: origin, nanoseconds: nanoseconds, reason: reason, to: &output)
          if encodingError == nil {
            // The type only, never the value: a value that failed to encode was not redacted either.
            encodingError = .encodingFailed(reason: "action #\(sequence) (\(typeName(Action.self))): \(reason)")
          }
        }
        if output.count >= 192 << 10 {
          if let error = file.write(output) { return error }
          output.removeAll(keepingCapacity: true)
        }
      }
    }
    if let error = file.write(output) { return error }
    return encodingError
  }
}

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
      // Most steps read nothing: looked up only in a chunk where some did.
      let chunkReads = chunk.reads.byIndex
      for index in 0..<chunk.count {
        let sequence = chunk.firstSequence + UInt64(index)
        let origin = chunk.origins[index]
        let nanoseconds = chunk.times[index]
        do {
          actionBytes.removeAll(keepingCapacity: true)
          try CanonicalJSONEncoder.encode(chunk.actions[index], appendingTo: &actionBytes)
          var fingerprint: ActionLogFingerprint?
          stateBytes.removeAll(keepingCapacity: true)
          if let states = chunk.states {
            // The shared values in the kept state as they were at its step, not as later steps left them.
            try encodeState(states[index], atStep: sequence, fingerprint: &fingerprint, into: &stateBytes)
          }
          var reducerReads: [UInt8]?
          var effectReads: [UInt8]?
          if !chunkReads.isEmpty, let stepReads = chunkReads[index] {
            reducerReads = try Self.encode(stepReads.reducer)
            effectReads = try Self.encode(stepReads.effects)
          }
          ActionLogFormat.appendEntry(
            sequence: sequence, origin: origin, nanoseconds: nanoseconds, action: actionBytes,
            fingerprint: fingerprint, state: writesStates ? stateBytes : nil, reads: reducerReads,
            effectReads: effectReads, to: &output)
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

  /// The canonical JSON of `reads`, or nil when there are none.
  private static func encode(_ reads: DependencyReads) throws -> [UInt8]? {
    reads.isEmpty ? nil : try CanonicalJSONEncoder.encode(ActionLogReads(reads))
  }

  /// The fingerprint and (if written) the canonical JSON of the state kept at step `step`.
  private func encodeState(
    _ state: State, atStep step: UInt64, fingerprint: inout ActionLogFingerprint?, into bytes: inout [UInt8]
  ) throws {
    func encode() throws {
      if fingerprints { fingerprint = try ActionLogFingerprint(of: state) }
      if writesStates { try CanonicalJSONEncoder.encode(state, appendingTo: &bytes) }
    }
    if let sharedValues {
      try sharedValues.withValues(atStep: step, encode)
    } else {
      try encode()
    }
  }
}

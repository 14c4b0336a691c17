import Foundation
import Unidirectional

/// Writes the lines of an action log (JSON Lines, UTF-8, one `\n` after every line).
///
/// ```
/// {"format":"unidirectional-action-log","version":2,"feature":"TimerCounter","fingerprints":"fnv1a64-structural",
///  "initialFingerprint":"…","initialState":{"count":0,"isRunning":false,"target":3}}
/// {"seq":1,"origin":"sent","time":0,"action":{"start":{}},"fingerprint":"…"}
/// {"seq":2,"origin":"received","time":0.100131,"action":{"tick":{}},"fingerprint":"…"}
/// ```
/// (The header is one line; it is wrapped here.) `time` is seconds since recording started on the store's
/// injected clock, to the nanosecond; `fingerprint` is the ``ActionLogFingerprint`` of the state after the action.
/// A step whose reducer read non-deterministic dependencies carries `"reads":{…}`, and one before which effects did
/// `"effectReads":{…}` (``ActionLogReads``).
/// A line whose action could not be encoded carries `"unencodable":"<reason>"` instead of `"action"`. A recorder
/// made with `states: true` adds `"state":{…}`, the whole state after the action (canonical JSON, secrets redacted).
enum ActionLogFormat {
  /// The `format` value of every header.
  static let name = "unidirectional-action-log"
  /// The version this library writes. Version 2 added what each step read from non-deterministic dependencies
  /// (`"reads"`, `"effectReads"`): its replays feed them back.
  static let version = 2
  /// The versions this library reads: a version 1 log replays with the dependencies the replay is given.
  static let readableVersions = 1...2

  /// The header line, with its newline.
  static func header(feature: String, initialState: [UInt8], fingerprint: ActionLogFingerprint?) -> [UInt8] {
    var line: [UInt8] = []
    line.reserveCapacity(initialState.count + 160)
    line.append(contentsOf: #"{"format":"#.utf8)
    CanonicalNode.writeString(name, to: &line)
    line.append(contentsOf: #","version":"#.utf8)
    CanonicalNode.writeInteger(Int64(version), to: &line)
    line.append(contentsOf: #","feature":"#.utf8)
    CanonicalNode.writeString(feature, to: &line)
    if let fingerprint {
      line.append(contentsOf: #","fingerprints":"#.utf8)
      CanonicalNode.writeString(ActionLogFingerprint.algorithm, to: &line)
      line.append(contentsOf: #","initialFingerprint":""#.utf8)
      line.append(contentsOf: fingerprint.description.utf8)
      line.append(UInt8(ascii: "\""))
    }
    line.append(contentsOf: #","initialState":"#.utf8)
    line.append(contentsOf: initialState)
    line.append(contentsOf: "}\n".utf8)
    return line
  }

  /// Appends one action line, with its newline.
  static func appendEntry(
    sequence: UInt64, origin: ActionOrigin, nanoseconds: Int64, action: [UInt8],
    fingerprint: ActionLogFingerprint?, state: [UInt8]? = nil, reads: [UInt8]? = nil, effectReads: [UInt8]? = nil,
    to output: inout [UInt8]
  ) {
    appendPrefix(sequence: sequence, origin: origin, nanoseconds: nanoseconds, to: &output)
    output.append(contentsOf: #","action":"#.utf8)
    output.append(contentsOf: action)
    if let effectReads {
      output.append(contentsOf: #","effectReads":"#.utf8)
      output.append(contentsOf: effectReads)
    }
    if let fingerprint {
      output.append(contentsOf: #","fingerprint":""#.utf8)
      output.append(contentsOf: fingerprint.description.utf8)
      output.append(UInt8(ascii: "\""))
    }
    if let reads {
      output.append(contentsOf: #","reads":"#.utf8)
      output.append(contentsOf: reads)
    }
    if let state {
      output.append(contentsOf: #","state":"#.utf8)
      output.append(contentsOf: state)
    }
    output.append(contentsOf: "}\n".utf8)
  }

  /// Appends the line of an action that could not be encoded: its place in the sequence is kept, so replay stops
  /// there with a clear error instead of silently skipping it.
  static func appendUnencodable(
    sequence: UInt64, origin: ActionOrigin, nanoseconds: Int64, reason: String, to output: inout [UInt8]
  ) {
    appendPrefix(sequence: sequence, origin: origin, nanoseconds: nanoseconds, to: &output)
    output.append(contentsOf: #","unencodable":"#.utf8)
    CanonicalNode.writeString(reason, to: &output)
    output.append(contentsOf: "}\n".utf8)
  }

  private static func appendPrefix(
    sequence: UInt64, origin: ActionOrigin, nanoseconds: Int64, to output: inout [UInt8]
  ) {
    output.append(contentsOf: #"{"seq":"#.utf8)
    CanonicalNode.writeUnsigned(sequence, to: &output)
    output.append(contentsOf: origin == .sent ? #","origin":"sent""#.utf8 : #","origin":"received""#.utf8)
    output.append(contentsOf: #","time":"#.utf8)
    appendSeconds(nanoseconds, to: &output)
  }

  /// Writes nanoseconds as decimal seconds without trailing zeros: `0`, `0.1`, `12.000000345`, `-0.5`.
  static func appendSeconds(_ nanoseconds: Int64, to output: inout [UInt8]) {
    if nanoseconds < 0 { output.append(UInt8(ascii: "-")) }
    let magnitude = nanoseconds.magnitude
    CanonicalNode.writeUnsigned(magnitude / 1_000_000_000, to: &output)
    var fraction = magnitude % 1_000_000_000
    guard fraction > 0 else { return }
    var digits = 9
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    output.append(UInt8(ascii: "."))
    var divisor: UInt64 = 1
    for _ in 1..<digits { divisor *= 10 }
    while divisor > 0 {
      output.append(UInt8(ascii: "0") &+ UInt8(fraction / divisor % 10))
      divisor /= 10
    }
  }
}

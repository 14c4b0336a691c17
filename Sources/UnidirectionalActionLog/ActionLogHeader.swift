import Foundation
import Unidirectional

/// The first line of an action log: which feature recorded it, in which format, with which fingerprints.
///
/// ```swift
/// let header = try ActionLogHeader.read(from: url)
/// switch header.feature {
/// case "TimerCounter": …   // pick the reducer to replay it with
/// }
/// ```
public struct ActionLogHeader: Sendable, Equatable {
  /// The feature's name, as given to the recorder (by default the reducer's type name).
  public var feature: String
  /// The format version.
  public var version: Int
  /// The fingerprint algorithm (``ActionLogFingerprint/algorithm``), or `nil` when the log has no fingerprints.
  public var fingerprintAlgorithm: String?
  /// The fingerprint of the initial state, when the log has fingerprints.
  public var initialFingerprint: ActionLogFingerprint?

  /// Reads the header of the log at `url` (only its first line).
  public static func read(from url: URL) throws(ActionLogError) -> ActionLogHeader {
    let reader = try ActionLogLineReader(url: url)
    guard let line = try reader.nextLine() else { throw .missingHeader }
    return try decode(line.bytes, terminated: line.terminated)
  }

  /// Decodes a header line, with its initial state as `State`.
  static func decode<State: Decodable>(_ bytes: Data, terminated: Bool, state: State.Type)
    throws(ActionLogError) -> (header: ActionLogHeader, initialState: State)
  {
    let header = try decode(bytes, terminated: terminated)
    do {
      let line = try JSONDecoder().decode(StateLine<State>.self, from: bytes)
      return (header, line.initialState)
    } catch {
      throw .unknownState(line: 1, reason: ActionLogDecoding.reason(error))
    }
  }

  private static func decode(_ bytes: Data, terminated: Bool) throws(ActionLogError) -> ActionLogHeader {
    let line: HeaderLine
    do {
      line = try JSONDecoder().decode(HeaderLine.self, from: bytes)
    } catch {
      let truncated = terminated ? "" : " (the file ends in the middle of this line)"
      throw .corruptLine(line: 1, reason: ActionLogDecoding.reason(error) + truncated)
    }
    guard line.format == ActionLogFormat.name else {
      throw .unsupportedFormat(line: 1, found: "format \"\(line.format)\" (expected \"\(ActionLogFormat.name)\")")
    }
    guard ActionLogFormat.readableVersions.contains(line.version) else {
      let versions = ActionLogFormat.readableVersions
      throw .unsupportedFormat(
        line: 1,
        found: "version \(line.version) (this library reads versions \(versions.lowerBound) to \(versions.upperBound))")
    }
    if let algorithm = line.fingerprints, algorithm != ActionLogFingerprint.algorithm {
      throw .unsupportedFormat(line: 1, found: "fingerprint algorithm \"\(algorithm)\"")
    }
    var initialFingerprint: ActionLogFingerprint?
    if let hex = line.initialFingerprint {
      guard let fingerprint = ActionLogFingerprint(hex: hex) else {
        throw .corruptLine(line: 1, reason: "initialFingerprint \"\(hex)\" is not 16 hex digits")
      }
      initialFingerprint = fingerprint
    }
    return ActionLogHeader(
      feature: line.feature, version: line.version, fingerprintAlgorithm: line.fingerprints,
      initialFingerprint: initialFingerprint)
  }

  private struct HeaderLine: Decodable {
    var format: String
    var version: Int
    var feature: String
    var fingerprints: String?
    var initialFingerprint: String?
  }

  private struct StateLine<State: Decodable>: Decodable {
    var initialState: State
  }

  init(
    feature: String, version: Int, fingerprintAlgorithm: String? = nil,
    initialFingerprint: ActionLogFingerprint? = nil
  ) {
    self.feature = feature
    self.version = version
    self.fingerprintAlgorithm = fingerprintAlgorithm
    self.initialFingerprint = initialFingerprint
  }
}

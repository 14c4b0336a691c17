import Foundation
import Unidirectional

/// The values a step read from the non-deterministic built-in dependencies when it was recorded — `uuid()`,
/// `date.now`, the numbers a `withRandomNumberGenerator` body drew, a clock's `now` — in the order they were read.
/// A replay gives them back to the reducer (exact replay); a test written from the log injects them.
///
/// ```swift
/// while let step = try replay.next() {
///   if let reads = step.reads { print(reads.uuids) }   // the UUIDs the reducer made at this step
/// }
/// ```
///
/// In the log, a line's `"reads"` are its reducer's, and its `"effectReads"` those of the store's effects since the
/// line before: `{"clock.now":[2000000000],"date":[786000000.5],"random":[42],"uuid":["…"]}` (a clock's `now` in
/// nanoseconds since recording started on it, a date in seconds since 2001-01-01).
public struct ActionLogReads: Sendable, Equatable {
  /// Each `uuid()`.
  public var uuids: [UUID]
  /// Each `date.now` (or `date()`).
  public var dates: [Date]
  /// Each number drawn from `withRandomNumberGenerator`'s generator.
  public var randomNumbers: [UInt64]
  /// Each `now` a reducer read, by clock dependency (`clock`, `continuousClock`, `suspendingClock`): the time since
  /// recording started on that clock.
  public var nows: [String: [Duration]]

  /// Reads of these values.
  public init(
    uuids: [UUID] = [], dates: [Date] = [], randomNumbers: [UInt64] = [], nows: [String: [Duration]] = [:]
  ) {
    self.uuids = uuids
    self.dates = dates
    self.randomNumbers = randomNumbers
    self.nows = nows
  }

  /// Whether nothing was read.
  public var isEmpty: Bool {
    uuids.isEmpty && dates.isEmpty && randomNumbers.isEmpty && nows.values.allSatisfy(\.isEmpty)
  }

  init(_ reads: DependencyReads) {
    self.init(
      uuids: reads.uuids, dates: reads.dates, randomNumbers: reads.randomNumbers,
      nows: Dictionary(uniqueKeysWithValues: reads.nows.map { ($0.key.rawValue, $0.value) }))
  }

  /// The reads as the core's replay feed takes them (clocks it does not know are left out).
  var dependencyReads: DependencyReads {
    var nows: [ClockDependency: [Duration]] = [:]
    for (name, values) in self.nows {
      if let clock = ClockDependency(rawValue: name) { nows[clock] = values }
    }
    return DependencyReads(uuids: uuids, dates: dates, randomNumbers: randomNumbers, nows: nows)
  }
}

extension ActionLogReads: Codable {
  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  private static let nowSuffix = ".now"

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    uuids = try container.decodeIfPresent([UUID].self, forKey: Key("uuid")) ?? []
    dates = try container.decodeIfPresent([Date].self, forKey: Key("date")) ?? []
    randomNumbers = try container.decodeIfPresent([UInt64].self, forKey: Key("random")) ?? []
    nows = [:]
    for key in container.allKeys where key.stringValue.hasSuffix(Self.nowSuffix) {
      let nanoseconds = try container.decode([Int64].self, forKey: key)
      nows[String(key.stringValue.dropLast(Self.nowSuffix.count))] = nanoseconds.map { .nanoseconds($0) }
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    if !uuids.isEmpty { try container.encode(uuids, forKey: Key("uuid")) }
    if !dates.isEmpty { try container.encode(dates, forKey: Key("date")) }
    if !randomNumbers.isEmpty { try container.encode(randomNumbers, forKey: Key("random")) }
    for (clock, values) in nows where !values.isEmpty {
      try container.encode(values.map(RecordingTimeSource.nanoseconds), forKey: Key(clock + Self.nowSuffix))
    }
  }
}

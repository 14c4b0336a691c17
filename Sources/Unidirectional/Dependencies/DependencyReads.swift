import Foundation

/// The values a store's reducer (or its effects) read from the non-deterministic built-in dependencies — `\.uuid`,
/// `\.date`, `\.withRandomNumberGenerator` and the clocks' `now` — in the order each was read: what an action log
/// records with each step so that replaying it is exact.
///
/// ```swift
/// var reads = DependencyReads()
/// reads.uuids.append(UUID(0))
/// reads.nows[.clock, default: []].append(.seconds(2))   // `clock.now`, 2 s after recording started
/// ```
package struct DependencyReads: Sendable, Equatable {
  /// Each `uuid()`.
  package var uuids: [UUID] = []
  /// Each `date.now` (or `date()`).
  package var dates: [Date] = []
  /// Each number a `withRandomNumberGenerator` body drew (`next()`).
  package var randomNumbers: [UInt64] = []
  /// Each `now` of each clock dependency, as the time since recording started on that clock.
  package var nows: [ClockDependency: [Duration]] = [:]

  package init(
    uuids: [UUID] = [], dates: [Date] = [], randomNumbers: [UInt64] = [], nows: [ClockDependency: [Duration]] = [:]
  ) {
    self.uuids = uuids
    self.dates = dates
    self.randomNumbers = randomNumbers
    self.nows = nows
  }

  /// Whether nothing was read.
  package var isEmpty: Bool { uuids.isEmpty && dates.isEmpty && randomNumbers.isEmpty && nows.isEmpty }

  /// `other`'s values after these, kind by kind.
  package mutating func append(_ other: DependencyReads) {
    uuids += other.uuids
    dates += other.dates
    randomNumbers += other.randomNumbers
    for (clock, values) in other.nows { nows[clock, default: []] += values }
  }

  /// How many values of each kind were read, by the name the log and messages use (`uuid`, `date`, `random`,
  /// `clock.now`, …), leaving out kinds with none.
  package var counts: [String: Int] {
    var counts: [String: Int] = [:]
    if !uuids.isEmpty { counts[Self.uuidName] = uuids.count }
    if !dates.isEmpty { counts[Self.dateName] = dates.count }
    if !randomNumbers.isEmpty { counts[Self.randomName] = randomNumbers.count }
    for (clock, values) in nows where !values.isEmpty { counts[clock.nowName] = values.count }
    return counts
  }

  package static let uuidName = "uuid"
  package static let dateName = "date"
  package static let randomName = "random"
}

/// The clock dependencies whose `now` a recording keeps.
package enum ClockDependency: String, CaseIterable, Sendable, Hashable {
  case clock, continuousClock, suspendingClock

  /// The key path of the dependency.
  package var keyPath: WritableKeyPath<DependencyValues, any Clock<Duration>> {
    switch self {
    case .clock: \.clock
    case .continuousClock: \.continuousClock
    case .suspendingClock: \.suspendingClock
    }
  }

  /// `clock.now`, `continuousClock.now`, …: the name of its reads in a log and in messages.
  package var nowName: String { rawValue + ".now" }
}

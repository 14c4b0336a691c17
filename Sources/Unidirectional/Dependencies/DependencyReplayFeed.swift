import Foundation

/// Gives a replayed reducer, step by step, the values it read from the non-deterministic built-in dependencies
/// when its action log was recorded (exact replay), and says where it now reads more or fewer of them.
///
/// ```swift
/// let feed = DependencyReplayFeed()
/// feed.install(into: &dependencies)        // the replay's dependencies
/// feed.load(recordedReadsOfStep)           // before each step
/// reducer.reduce(into: &state, action: action)
/// let mismatches = feed.finishStep()      // [] when it read exactly what was recorded
/// ```
///
/// A read beyond the recorded values gets a stand-in (UUIDs numbered from 0, the last recorded date or instant,
/// numbers of a fixed pseudo-random sequence) and is counted.
package final class DependencyReplayFeed: @unchecked Sendable {
  private let lock = Lock()
  // Guarded by `lock`.
  private var recorded = DependencyReads()
  private var read = ReadCounts()

  private struct ReadCounts {
    var uuids = 0
    var dates = 0
    var randomNumbers = 0
    var nows: [ClockDependency: Int] = [:]
  }

  package init() {}

  /// The values the next step read when it was recorded.
  package func load(_ reads: DependencyReads) {
    lock.withLock {
      recorded = reads
      read = ReadCounts()
    }
  }

  /// Ends a step: each kind of value read more or fewer times than recorded.
  package func finishStep() -> [DependencyReadMismatch] {
    lock.withLock {
      var mismatches: [DependencyReadMismatch] = []
      func check(_ name: String, recorded: Int, read: Int) {
        if recorded != read { mismatches.append(DependencyReadMismatch(name: name, recorded: recorded, read: read)) }
      }
      check(DependencyReads.uuidName, recorded: recorded.uuids.count, read: read.uuids)
      check(DependencyReads.dateName, recorded: recorded.dates.count, read: read.dates)
      check(DependencyReads.randomName, recorded: recorded.randomNumbers.count, read: read.randomNumbers)
      for clock in ClockDependency.allCases {
        check(clock.nowName, recorded: recorded.nows[clock]?.count ?? 0, read: read.nows[clock] ?? 0)
      }
      return mismatches
    }
  }

  /// Makes `values`' UUIDs, dates, random numbers and clocks' `now` come from this feed.
  package func install(into values: inout DependencyValues) {
    values.uuid = UUIDGenerator { [self] in nextUUID() }
    values.date = DateGenerator { [self] in nextDate() }
    values.withRandomNumberGenerator = WithRandomNumberGenerator(ReplayedRandomNumbers(feed: self))
    for clock in ClockDependency.allCases {
      values[keyPath: clock.keyPath] = ReplayedClock(feed: self, dependency: clock)
    }
  }

  private func nextUUID() -> UUID {
    lock.withLock {
      defer { read.uuids += 1 }
      guard read.uuids < recorded.uuids.count else { return UUID(sequenceNumber: UInt64(read.uuids)) }
      return recorded.uuids[read.uuids]
    }
  }

  private func nextDate() -> Date {
    lock.withLock {
      defer { read.dates += 1 }
      guard read.dates < recorded.dates.count else {
        return recorded.dates.last ?? Date(timeIntervalSinceReferenceDate: 0)
      }
      return recorded.dates[read.dates]
    }
  }

  fileprivate func nextRandomNumber() -> UInt64 {
    lock.withLock {
      defer { read.randomNumbers += 1 }
      guard read.randomNumbers < recorded.randomNumbers.count else {
        return SplitMix64.standIn(at: read.randomNumbers - recorded.randomNumbers.count)
      }
      return recorded.randomNumbers[read.randomNumbers]
    }
  }

  fileprivate func nextNow(of clock: ClockDependency) -> Duration {
    lock.withLock {
      let index = read.nows[clock, default: 0]
      read.nows[clock] = index + 1
      let values = recorded.nows[clock] ?? []
      return index < values.count ? values[index] : values.last ?? .zero
    }
  }
}

/// A step of a replay read some kind of value (`uuid`, `date`, `random`, `clock.now`, …) a different number of
/// times than the recording did.
package struct DependencyReadMismatch: Sendable, Equatable {
  /// The kind, as the log names it.
  package let name: String
  /// How many the recording read.
  package let recorded: Int
  /// How many the replay read.
  package let read: Int
}

/// The random numbers of a replay: the recorded ones.
private struct ReplayedRandomNumbers: RandomNumberGenerator, Sendable {
  let feed: DependencyReplayFeed
  mutating func next() -> UInt64 { feed.nextRandomNumber() }
}

/// A clock whose `now` is what the recording's clock said at the same read; it never wakes a sleeper (a replay
/// runs no effect).
private struct ReplayedClock: Clock {
  let feed: DependencyReplayFeed
  let dependency: ClockDependency

  var now: TestClock.Instant { TestClock.Instant(offset: feed.nextNow(of: dependency)) }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {
    try await Task.never()
  }
}

/// A clock dependency whose `now`, read by a reducer, is recorded (as the time since recording started) for exact
/// replay; sleeps and everything else go to the clock it wraps.
///
/// ```swift
/// values.clock = ReadRecordingClock(base: values.clock, dependency: .clock, tape: tape)
/// ```
struct ReadRecordingClock<Base: Clock<Duration>>: Clock, ClockWrapping {
  let base: Base
  let start: Base.Instant
  let dependency: ClockDependency
  let tape: DependencyReadTape

  init(base: Base, dependency: ClockDependency, tape: DependencyReadTape) {
    self.base = base
    self.start = base.now
    self.dependency = dependency
    self.tape = tape
  }

  var now: Base.Instant {
    let now = base.now
    tape.recordNow(start.duration(to: now), of: dependency)
    return now
  }

  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: Base.Instant, tolerance: Duration?) async throws {
    try await base.sleep(until: deadline, tolerance: tolerance)
  }

  var wrappedClock: any Clock<Duration> { base }
}

/// A clock that stands for another one (a recording or replaying wrapper): code that treats some clocks specially
/// (a ``TestClock``'s scheduling) looks through it.
package protocol ClockWrapping {
  /// The clock this one stands for.
  var wrappedClock: any Clock<Duration> { get }
}

/// `clock` itself, or the clock it wraps (all the way down).
package func unwrapped(_ clock: any Clock<Duration>) -> any Clock<Duration> {
  var clock = clock
  while let wrapping = clock as? any ClockWrapping { clock = wrapping.wrappedClock }
  return clock
}

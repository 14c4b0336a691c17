import Foundation
import Unidirectional

/// Runs generated programs seed after seed and shrinks the first failure: what the fixed-seed test and
/// `Scripts/generated-programs` both do.
///
/// ```swift
/// let result = await ProgramCampaign.run(seeds: 0..<1_000, options: .withoutKnownBugs)
/// if let failure = result.failure { print(failure.source) }
/// ```
package enum ProgramCampaign {
  package struct Result {
    package var programs = 0
    /// Programs where the documented order left variants of the model: the store matched one.
    package var orderOpen = 0
    /// Programs where one cancellation woke two tasks whose ends lead somewhere, in an undocumented order: only
    /// checked to keep nothing.
    package var wakeOrderOpen = 0
    package var seconds = 0.0
    package var failure: Failure?

    package var programsPerSecond: Double { seconds > 0 ? Double(programs) / seconds : 0 }
  }

  package struct Failure {
    package let seed: UInt64
    package let failure: ProgramFailure
    /// The shrunk program as a regression test.
    package let source: String
  }

  /// Runs the program of every seed under a `TestStore` (or, with `live`, on live stores), one after another, and
  /// stops at the first that fails.
  ///
  /// One at a time: in a test process, the test stores of one test share what a `TestClock` drains before it moves
  /// time, so programs run at once in one test would see each other's effects (run more in other processes, or
  /// other tests).
  package static func run(seeds: Range<UInt64>, options: ProgramGenerator.Options, live: Bool = false) async -> Result {
    let start = ContinuousClock.now
    var result = Result()
    for seed in seeds {
      if let failure = await run(seed: seed, options: options, live: live, into: &result) {
        result.failure = failure
        break
      }
    }
    result.seconds = seconds(since: start)
    return result
  }

  /// Runs one program; on a failure, shrinks it.
  private static func run(
    seed: UInt64, options: ProgramGenerator.Options, live: Bool, into result: inout Result
  ) async -> Failure? {
    var generator = ProgramGenerator(seed: seed, options: options)
    let program = generator.program()
    result.programs += 1
    let check: (GeneratedProgram) async -> ProgramFailure? =
      live ? { await LiveStoreRun.check($0) } : { await TestStoreRun.check($0) }
    let failure: ProgramFailure?
    if live {
      failure = await check(program)
    } else {
      let run = await TestStoreRun.run(program)
      switch run.determinacy {
      case .fixed: break
      case .variants: result.orderOpen += 1
      case .wakeOrderOpen: result.wakeOrderOpen += 1
      }
      failure = run.failure
    }
    guard let failure else { return nil }
    let minimal = await ProgramShrinker.shrink(program, failure: failure, check: check)
    let source = ProgramSource.regressionTest(named: "seed \(seed) shrunk", minimal.program, failure: minimal.failure)
    return Failure(seed: seed, failure: failure, source: source)
  }

  private static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = start.duration(to: .now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}

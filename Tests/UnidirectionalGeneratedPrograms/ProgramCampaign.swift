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
    /// Programs whose order of actions was open somewhere, compared as per-step multisets.
    package var orderOpen = 0
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

  /// Runs the program of every seed under a `TestStore` (or, with `live`, on live stores), `jobs` at a time, and
  /// stops at the first that fails (the lowest failing seed of those run).
  package static func run(
    seeds: Range<UInt64>, options: ProgramGenerator.Options, live: Bool = false, jobs: Int = 1
  ) async -> Result {
    let start = ContinuousClock.now
    let stop = LockIsolated(false)
    var result = await withTaskGroup(of: Result.self) { group in
      for job in 0..<max(jobs, 1) {
        group.addTask {
          var result = Result()
          for seed in seeds where Int(seed % UInt64(max(jobs, 1))) == job {
            if stop.value { break }
            if let failure = await run(seed: seed, options: options, live: live, into: &result) {
              stop.setValue(true)
              result.failure = failure
              break
            }
          }
          return result
        }
      }
      var total = Result()
      for await result in group {
        total.programs += result.programs
        total.orderOpen += result.orderOpen
        if let failure = result.failure, total.failure.map({ failure.seed < $0.seed }) ?? true {
          total.failure = failure
        }
      }
      return total
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
      if run.isOrderOpen { result.orderOpen += 1 }
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

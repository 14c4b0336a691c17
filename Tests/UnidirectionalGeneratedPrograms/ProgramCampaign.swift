import Foundation

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

  /// Runs the program of every seed under a `TestStore` (or, with `live`, on live stores), stopping at the first
  /// that fails.
  package static func run(
    seeds: some Sequence<UInt64>, options: ProgramGenerator.Options, live: Bool = false
  ) async -> Result {
    let check: (GeneratedProgram) async -> ProgramFailure? =
      live ? { await LiveStoreRun.check($0) } : { await TestStoreRun.check($0) }
    var result = Result()
    let start = ContinuousClock.now
    for seed in seeds {
      var generator = ProgramGenerator(seed: seed, options: options)
      let program = generator.program()
      result.programs += 1
      let failure: ProgramFailure?
      if live {
        failure = await check(program)
      } else {
        let run = await TestStoreRun.run(program)
        if run.isOrderOpen { result.orderOpen += 1 }
        failure = run.failure
      }
      guard let failure else { continue }
      result.seconds = seconds(since: start)
      let minimal = await ProgramShrinker.shrink(program, failure: failure, check: check)
      let source = ProgramSource.regressionTest(
        named: "seed \(seed) shrunk", minimal.program, failure: minimal.failure)
      result.failure = Failure(seed: seed, failure: failure, source: source)
      return result
    }
    result.seconds = seconds(since: start)
    return result
  }

  private static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = start.duration(to: .now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}

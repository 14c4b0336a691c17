import Testing

@testable import UnidirectionalGeneratedPrograms

/// The test command's fixed seeds: 4,000 generated programs, every shape but those of the known bugs
/// (``ProgramGenerator/Options/withoutKnownBugs``), each run under a `TestStore` and compared with the reference
/// model. A failure prints the seed and the shrunk program as a regression test; `Scripts/generated-programs` runs
/// any number of other seeds.
@Suite struct GeneratedProgramSeedTests {
  @Test(arguments: 0..<8)
  func fixedSeeds(batch: UInt64) async {
    let seeds = (batch * 500)..<((batch + 1) * 500)
    let result = await ProgramCampaign.run(seeds: seeds, options: .withoutKnownBugs)
    #expect(result.programs == seeds.count || result.failure != nil)
    if let failure = result.failure {
      Issue.record("seed \(failure.seed): \(failure.failure)\n\(failure.source)")
    }
  }
}

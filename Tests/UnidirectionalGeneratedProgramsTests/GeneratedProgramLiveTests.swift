import Testing

@testable import UnidirectionalGeneratedPrograms

/// The fixed seeds on live stores: each program's script shared among three threads that send and cancel at once,
/// checked for what does not depend on their order — nothing lost, every cancel honoured, nothing kept
/// (``LiveStoreRun``). `Scripts/generated-programs --live` runs any number of other seeds.
@Suite struct GeneratedProgramLiveTests {
  @Test(arguments: 0..<4)
  func fixedSeeds(batch: UInt64) async {
    let seeds = (batch * 250)..<((batch + 1) * 250)
    let result = await ProgramCampaign.run(seeds: seeds, options: .withoutKnownBugs, live: true)
    if let failure = result.failure {
      Issue.record("seed \(failure.seed): \(failure.failure)\n\(failure.source)")
    }
    #expect(result.programs == seeds.count || result.failure != nil)
  }
}

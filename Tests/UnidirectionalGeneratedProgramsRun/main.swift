// `swift run -c release UnidirectionalGeneratedProgramsRun [--count N] [--seed S] [--all] [--live]`, or
// `Scripts/generated-programs`: runs N generated programs (seeds S, S+1, …; S random by default) against the
// reference model, prints programs per second, and on a failure its seed and its shrunk program as a regression
// test (exit status 1). `--all` includes the shapes of the known bugs; `--live` runs them on live stores from
// several threads instead of under a TestStore.
import Foundation
import UnidirectionalGeneratedPrograms

func runGeneratedPrograms(_ arguments: [String]) async -> Int32 {
  var count = 10_000
  var seed = UInt64.random(in: 0...UInt64.max)
  var options = ProgramGenerator.Options.withoutKnownBugs
  var live = false
  var arguments = arguments[...]
  while let argument = arguments.popFirst() {
    switch argument {
    case "--count": count = arguments.popFirst().flatMap { Int($0) } ?? count
    case "--seed": seed = arguments.popFirst().flatMap { UInt64($0) } ?? seed
    case "--all": options = .all
    case "--live": live = true
    default:
      print("usage: generated-programs [--count N] [--seed S] [--all] [--live]")
      return 2
    }
  }
  let first = seed
  print("seeds \(first) ..< \(first &+ UInt64(count)) (\(live ? "live stores" : "TestStore"), \(options))")
  let seeds = (0..<UInt64(count)).lazy.map { first &+ $0 }
  let result = await ProgramCampaign.run(seeds: seeds, options: options, live: live)
  let rate = String(format: "%.0f", result.programsPerSecond)
  print(
    "\(result.programs) programs in \(String(format: "%.1f", result.seconds)) s: \(rate) programs/s"
      + (live ? "" : " (\(result.orderOpen) where the documented order leaves variants, matched against each)"))
  guard let failure = result.failure else { return 0 }
  print("FAILED at seed \(failure.seed): \(failure.failure)")
  print(failure.source)
  return 1
}

exit(await runGeneratedPrograms(Array(CommandLine.arguments.dropFirst())))

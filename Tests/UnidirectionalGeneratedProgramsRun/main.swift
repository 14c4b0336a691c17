// `swift run -c release UnidirectionalGeneratedProgramsRun [--count N] [--seed S] [--jobs J] [--all] [--live]`, or
// `Scripts/generated-programs`: runs N generated programs (seeds S, S+1, …; S random by default) against the
// reference model, prints programs per second, and on a failure its seed and its shrunk program as a regression
// test (exit status 1). `--all` includes the shapes of the known bugs; `--live` runs them on live stores from
// several threads instead of under a TestStore; `--jobs` programs run at a time (one per core by default).
import Foundation
import UnidirectionalGeneratedPrograms

func runGeneratedPrograms(_ arguments: [String]) async -> Int32 {
  var count = 10_000
  var seed = UInt64.random(in: 0...(UInt64.max / 2))
  var options = ProgramGenerator.Options.withoutKnownBugs
  var live = false
  var jobs = ProcessInfo.processInfo.activeProcessorCount
  var arguments = arguments[...]
  while let argument = arguments.popFirst() {
    switch argument {
    case "--count": count = arguments.popFirst().flatMap { Int($0) } ?? count
    case "--seed": seed = arguments.popFirst().flatMap { UInt64($0) }.map { min($0, UInt64.max / 2) } ?? seed
    case "--all": options = .all
    case "--live": live = true
    case "--jobs": jobs = arguments.popFirst().flatMap { Int($0) } ?? jobs
    default:
      print("usage: generated-programs [--count N] [--seed S] [--jobs J] [--all] [--live]")
      return 2
    }
  }
  let first = seed
  print(
    "seeds \(first) ..< \(first + UInt64(count)) (\(live ? "live stores" : "TestStore"), \(options), \(jobs) jobs)")
  let seeds = first..<(first + UInt64(count))
  let result = await ProgramCampaign.run(seeds: seeds, options: options, live: live, jobs: jobs)
  let rate = String(format: "%.0f", result.programsPerSecond)
  print(
    "\(result.programs) programs in \(String(format: "%.1f", result.seconds)) s: \(rate) programs/s"
      + (live ? "" : " (\(result.orderOpen) where the documented order leaves variants, matched against each)"))
  guard let failure = result.failure else { return 0 }
  print("FAILED at seed \(failure.seed): \(failure.failure)")
  print(failure.source)
  return 1
}

// The programs run as they do in `swift test`: in the test context, where a TestStore tracks the shared values a
// feature changes (outside it, `@Shared` changes are not tracked, and their attribution goes unchecked).
setenv("UNIDIRECTIONAL_CONTEXT", "test", 1)
exit(await runGeneratedPrograms(Array(CommandLine.arguments.dropFirst())))

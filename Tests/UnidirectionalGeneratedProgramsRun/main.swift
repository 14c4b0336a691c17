// `swift run -c release UnidirectionalGeneratedProgramsRun [--count N] [--seed S] [--jobs J] [--all] [--live]`, or
// `Scripts/generated-programs`: runs N generated programs (seeds S, S+1, …; S random by default) against the
// reference model, prints programs per second, and on a failure its seed and its shrunk program as a regression
// test (exit status 1). `--all` includes the shapes of the known bugs; `--live` runs them on live stores from
// several threads instead of under a TestStore; `--jobs` processes share the seeds (one per core by default).
import Foundation
import UnidirectionalGeneratedPrograms

struct Arguments {
  var count = 10_000
  var seed = UInt64.random(in: 0...(UInt64.max / 2))
  var options = ProgramGenerator.Options.withoutKnownBugs
  var live = false
  var jobs = ProcessInfo.processInfo.activeProcessorCount
  /// This process is one of the jobs of another (`--job`): it runs its seeds and reports to it.
  var isJob = false

  init?(_ arguments: [String]) {
    var arguments = arguments[...]
    while let argument = arguments.popFirst() {
      switch argument {
      case "--count": count = arguments.popFirst().flatMap { Int($0) } ?? count
      case "--seed": seed = arguments.popFirst().flatMap { UInt64($0) }.map { min($0, UInt64.max / 2) } ?? seed
      case "--all": options = .all
      case "--live": live = true
      case "--jobs": jobs = max(arguments.popFirst().flatMap { Int($0) } ?? jobs, 1)
      case "--job": isJob = true
      default: return nil
      }
    }
  }

  /// The arguments of a job running `count` seeds from `seed` in a process of its own.
  func job(seed: UInt64, count: Int) -> [String] {
    ["--job", "--count", "\(count)", "--seed", "\(seed)"] + (options == .all ? ["--all"] : [])
      + (live ? ["--live"] : [])
  }
}

/// Runs the seeds here, one program after another; prints a machine line (`result: programs variants wakeOrder`),
/// then the failure, if any.
func runHere(_ arguments: Arguments) async -> Int32 {
  let seeds = arguments.seed..<(arguments.seed + UInt64(arguments.count))
  let result = await ProgramCampaign.run(seeds: seeds, options: arguments.options, live: arguments.live)
  print("result: \(result.programs) \(result.orderOpen) \(result.wakeOrderOpen)")
  guard let failure = result.failure else { return 0 }
  print("FAILED at seed \(failure.seed): \(failure.failure)")
  print(failure.source)
  return 1
}

/// Runs the seeds in `jobs` processes of this program at once (each a test of its own, so that their test stores
/// do not share what a test clock drains), then adds up what they report.
func runInJobs(_ arguments: Arguments) async -> Int32 {
  let first = arguments.seed
  print(
    "seeds \(first) ..< \(first + UInt64(arguments.count)) (\(arguments.live ? "live stores" : "TestStore"), "
      + "\(arguments.options), \(arguments.jobs) jobs)")
  let start = ContinuousClock.now
  let share = (arguments.count + arguments.jobs - 1) / arguments.jobs
  var processes: [(Process, Pipe)] = []
  for job in 0..<arguments.jobs {
    let count = min(share, arguments.count - job * share)
    guard count > 0 else { break }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = arguments.job(seed: first + UInt64(job * share), count: count)
    let output = Pipe()
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      print("could not start a job: \(error)")
      return 2
    }
    processes.append((process, output))
  }
  var totals = [0, 0, 0]
  var failures: [String] = []
  for (process, output) in processes {
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if let line = lines.first(where: { $0.hasPrefix("result: ") }) {
      for (index, number) in line.dropFirst("result: ".count).split(separator: " ").enumerated() where index < 3 {
        totals[index] += Int(number) ?? 0
      }
    }
    if process.terminationStatus != 0 {
      failures.append(lines.filter { !$0.hasPrefix("result: ") }.joined(separator: "\n"))
    }
  }
  let elapsed = start.duration(to: .now)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  let rate = seconds > 0 ? Double(totals[0]) / seconds : 0
  print(
    "\(totals[0]) programs in \(String(format: "%.1f", seconds)) s: \(String(format: "%.0f", rate)) programs/s"
      + (arguments.live
        ? ""
        : " (\(totals[1]) matched one of the model's variants where the documented order leaves two; "
          + "\(totals[2]) with an undocumented wake order, checked to keep nothing)"))
  for failure in failures { print(failure) }
  return failures.isEmpty ? 0 : 1
}

func main(_ commandLine: [String]) async -> Int32 {
  guard let arguments = Arguments(commandLine) else {
    print("usage: generated-programs [--count N] [--seed S] [--jobs J] [--all] [--live]")
    return 2
  }
  return arguments.isJob ? await runHere(arguments) : await runInJobs(arguments)
}

// The programs run as they do in `swift test`: in the test context, where a TestStore tracks the shared values a
// feature changes (outside it, `@Shared` changes are not tracked, and their attribution goes unchecked).
setenv("UNIDIRECTIONAL_CONTEXT", "test", 1)
exit(await main(Array(CommandLine.arguments.dropFirst())))

import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import FeatureTestSupport
import ImageUpload
import Unidirectional
import UnidirectionalTesting

// The interleaving explorer on the upload feature: schedules per second, and how many schedules each bound holds.
//
//   swift run -c release --package-path Demos ExplorerBench [--json]
//
// The scenario is ImageUploadExploredTests' `uploadThree`: three images picked, loaded, presigned and uploaded by
// parallel PUTs (two at a time) whose every answer races, the success shown and cleared. The library's own
// explorer figures (a small feature) are `swift run -c release UnidirectionalExplorerBench` in the root package.

let json = CommandLine.arguments.contains("--json")

@MainActor
func uploadThree() async {
  let storage = RacingUploadStorage()
  let clock = TestClock()
  let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
    ImageUploadFeature()
  } withDependencies: {
    $0.clock = clock
    $0.imageLoader.load = { images in try await withRacing { images.map(UploadFixtures.loaded) } }
    $0.imageUploadClient = storage.client
  }
  store.exhaustivity = .off
  await store.send(.itemsPicked(UploadFixtures.picked))
  await store.receive(.delegate(.uploadCompleted(["media-sunset", "media-cat", "media-beach"])))
  await clock.advance(by: ImageUploadFeature.statusDisplayDuration)
  await store.finish()
  await store.skipReceivedActions(strict: false)
  if store.state.status != .idle { fatalError("the upload scenario failed: \(store.state.status)") }
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// CPU time used by the process so far, in seconds: on a machine shared with other work, schedules per CPU-second
/// move less than schedules per second of wall time.
func cpuSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func wallSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

@MainActor
func main() async {
  var lines: [String] = []
  if !json {
    lines += [
      "| scenario | strategy | schedules per exploration | schedules/s (wall) | schedules per CPU-s "
        + "| CPU µs per schedule | CPU µs per plain run |",
      "|---|---|---:|---:|---:|---:|---:|",
    ]
  }
  for strategy in [ExplorationStrategy.exhaustive(maxDeviations: 3), .random(seed: 1, schedules: 100)] {
    var wall: [Double] = []
    var cpu: [Double] = []
    var perExploration = 0
    for _ in 0..<5 {
      var schedules = 0
      let (wallStart, cpuStart) = (wallSeconds(), cpuSeconds())
      while wallSeconds() - wallStart < 1 {
        let report = await exploreInterleavings(strategy) { await uploadThree() }
        perExploration = report.schedulesRun
        schedules += report.schedulesRun
      }
      wall.append(Double(schedules) / (wallSeconds() - wallStart))
      cpu.append(Double(schedules) / (cpuSeconds() - cpuStart))
    }
    var plain: [Double] = []
    for _ in 0..<5 {
      let start = cpuSeconds()
      for _ in 0..<100 { await uploadThree() }
      plain.append((cpuSeconds() - start) * 1e6 / 100)
    }
    let (perWall, perCPU, plainCPU) = (median(wall), median(cpu), median(plain))
    if json {
      lines.append(
        "{\"case\":\"upload three images\",\"strategy\":\"\(strategy)\",\"schedules\":\(perExploration),"
          + "\"schedules_per_second\":\(Int(perWall.rounded())),\"schedules_per_cpu_second\":\(Int(perCPU.rounded())),"
          + "\"plain_run_cpu_us\":\(Int(plainCPU.rounded()))}")
    } else {
      lines.append(
        "| upload three images | \(strategy) | \(perExploration) | \(Int(perWall.rounded())) | "
          + "\(Int(perCPU.rounded())) | \(Int((1e6 / perCPU).rounded())) | \(Int(plainCPU.rounded())) |")
    }
  }
  if !json { lines += ["", "| scenario | bound | schedules | complete |", "|---|---:|---:|---|"] }
  for bound in 0...4 {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: bound, maxSchedules: 100_000)) {
      await uploadThree()
    }
    if json {
      lines.append(
        "{\"case\":\"upload three images\",\"bound\":\(bound),\"schedules\":\(report.schedulesRun),"
          + "\"complete\":\(report.isComplete)}")
    } else {
      lines.append("| upload three images | \(bound) | \(report.schedulesRun) | \(report.isComplete ? "yes" : "no") |")
    }
  }
  print(lines.joined(separator: "\n"))
}

await main()

import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Unidirectional
import UnidirectionalTesting

// The interleaving explorer: how many schedules a second it runs on a small feature, and how the number of schedules
// grows with the bound on deviations.
//
//   swift run -c release UnidirectionalExplorerBench [--json]
//
//   swift run -c release UnidirectionalExplorerBench --profile CASE [RUNS]
//
// `--profile` runs one case's exploration RUNS times (10 by default), or its scenario unexplored (`plain_*`), and
// prints how many schedules ran: fixed work for `valgrind --tool=callgrind`, whose instruction counts do not move
// with the machine's load as times do. CASE is search_exhaustive, search_random, search_pct, woken_exhaustive,
// plain_search or plain_woken.
//
// An executable of its own, not a case of `unidirectional-bench`: the explorer is in UnidirectionalTesting, which
// links XCTest and Swift Testing, and `unidirectional-bench` is a product that must not need either (nor load them
// next to the cases whose instruction counts are compared). The upload feature's figures are the Demos package's
// `ExplorerBench`.

let json = CommandLine.arguments.contains("--json")

/// The small feature: a search whose answers race (the corpus' stale search response, fixed). Two queries, two
/// racing answers, the results asserted: 1, 6, 9 and 9 schedules at bounds 0 to 3 (a cancelled search throws).
struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
  }
  enum Action: Equatable {
    case queryChanged(String)
    case response([String])
  }
  enum CancelID { case search }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .queryChanged(query):
      state.query = query
      return .run { send in send(.response(try await withRacing { ["\(query)!"] })) }
        .cancellable(id: CancelID.search, cancelInFlight: true)
    case let .response(results):
      state.results = results
      return .none
    }
  }
}

@MainActor
func typeTwoLetters() async {
  let store = TestStore(initialState: Search.State()) { Search() }
  store.exhaustivity = .off
  await store.send(.queryChanged("a"))
  await store.send(.queryChanged("ab"))
  await store.skipReceivedActions(strict: false)
  if store.state.results != ["ab!"] { fatalError("the search scenario failed: \(store.state.results)") }
}

/// Four effects woken at the same instant, `count` of them: any of their `count`! orders can run.
struct WokenTogether: Reducer {
  struct State: Equatable { var order: [Int] = [] }
  enum Action: Equatable { case sleep(Int), woke(Int) }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .sleep(effect):
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.woke(effect))
      }
    case let .woke(effect):
      state.order.append(effect)
      return .none
    }
  }
}

@MainActor
func wake(_ count: Int) async {
  let clock = TestClock()
  let store = TestStore(initialState: WokenTogether.State()) { WokenTogether(clock: clock) }
  store.exhaustivity = .off
  for effect in 0..<count { await store.send(.sleep(effect)) }
  await clock.advance(by: .seconds(1))
  await store.finish()
}

/// CPU time used by the process so far, in seconds: on a machine shared with other work, schedules per CPU-second
/// move less than schedules per second of wall time.
func cpuSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func wallSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// What one case measured: schedules per exploration, per second of wall time and per CPU-second (medians of
/// `rounds` rounds of about a second each), and the CPU time of one plain run of the scenario (no exploration).
struct Rates {
  var perExploration = 0
  var perWallSecond = 0.0
  var perCPUSecond = 0.0
  var plainCPUMicroseconds = 0.0
}

@MainActor
func measure(
  _ strategy: ExplorationStrategy, rounds: Int = 5, _ scenario: @escaping @MainActor () async -> Void
) async -> Rates {
  var rates = Rates()
  var wall: [Double] = []
  var cpu: [Double] = []
  for _ in 0..<rounds {
    var schedules = 0
    let (wallStart, cpuStart) = (wallSeconds(), cpuSeconds())
    while wallSeconds() - wallStart < 1 {
      let report = await exploreInterleavings(strategy) { await scenario() }
      rates.perExploration = report.schedulesRun
      schedules += report.schedulesRun
    }
    wall.append(Double(schedules) / (wallSeconds() - wallStart))
    cpu.append(Double(schedules) / (cpuSeconds() - cpuStart))
  }
  var plain: [Double] = []
  for _ in 0..<rounds {
    let runs = 200
    let start = cpuSeconds()
    for _ in 0..<runs { await scenario() }
    plain.append((cpuSeconds() - start) * 1e6 / Double(runs))
  }
  rates.perWallSecond = median(wall)
  rates.perCPUSecond = median(cpu)
  rates.plainCPUMicroseconds = median(plain)
  return rates
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func format(_ value: Double) -> String { "\(Int(value.rounded()))" }

/// `--profile CASE RUNS`: the fixed work callgrind counts. Returns false when CASE is not a case.
@MainActor
func profile(_ name: String, runs: Int) async -> Bool {
  let explored: [String: (ExplorationStrategy, @MainActor () async -> Void)] = [
    "search_exhaustive": (.exhaustive(maxDeviations: 3), { await typeTwoLetters() }),
    "search_random": (.random(seed: 1, schedules: 100), { await typeTwoLetters() }),
    "search_pct": (.pct(seed: 1, depth: 3, schedules: 100), { await typeTwoLetters() }),
    "woken_exhaustive": (.exhaustive(maxDeviations: 3), { await wake(4) }),
  ]
  let plain: [String: @MainActor () async -> Void] = [
    "plain_search": { await typeTwoLetters() }, "plain_woken": { await wake(4) },
  ]
  if let (strategy, scenario) = explored[name] {
    var schedules = 0
    for _ in 0..<runs { schedules += await exploreInterleavings(strategy) { await scenario() }.schedulesRun }
    print("\(name): \(runs) explorations, \(schedules) schedules")
    return true
  }
  guard let scenario = plain[name] else { return false }
  for _ in 0..<runs { await scenario() }
  print("\(name): \(runs) plain runs")
  return true
}

@MainActor
func main() async {
  if let index = CommandLine.arguments.firstIndex(of: "--profile") {
    let arguments = CommandLine.arguments.dropFirst(index + 1)
    guard let name = arguments.first, await profile(name, runs: arguments.dropFirst().first.flatMap { Int($0) } ?? 10)
    else {
      print("usage: UnidirectionalExplorerBench [--json] | --profile CASE [RUNS] (see the file's header)")
      exit(2)
    }
    return
  }
  var lines: [String] = []
  if !json {
    lines += [
      "| scenario | strategy | schedules per exploration | schedules/s (wall) | schedules per CPU-s "
        + "| CPU µs per schedule | CPU µs per plain run |",
      "|---|---|---:|---:|---:|---:|---:|",
    ]
  }
  let cases: [(String, ExplorationStrategy, @MainActor () async -> Void)] = [
    ("search (2 racing answers)", .exhaustive(maxDeviations: 3), { await typeTwoLetters() }),
    ("search (2 racing answers)", .random(seed: 1, schedules: 100), { await typeTwoLetters() }),
    ("search (2 racing answers)", .pct(seed: 1, depth: 3, schedules: 100), { await typeTwoLetters() }),
    ("4 effects woken together", .exhaustive(maxDeviations: 3), { await wake(4) }),
  ]
  for (name, strategy, scenario) in cases {
    let rates = await measure(strategy, scenario)
    if json {
      lines.append(
        "{\"case\":\"\(name)\",\"strategy\":\"\(strategy)\",\"schedules\":\(rates.perExploration),"
          + "\"schedules_per_second\":\(format(rates.perWallSecond)),"
          + "\"schedules_per_cpu_second\":\(format(rates.perCPUSecond)),"
          + "\"plain_run_cpu_us\":\(format(rates.plainCPUMicroseconds))}")
    } else {
      lines.append(
        "| \(name) | \(strategy) | \(rates.perExploration) | \(format(rates.perWallSecond)) | "
          + "\(format(rates.perCPUSecond)) | \(format(1e6 / rates.perCPUSecond)) | "
          + "\(format(rates.plainCPUMicroseconds)) |")
    }
  }
  if !json { lines += ["", "| scenario | bound | schedules | complete |", "|---|---:|---:|---|"] }
  let growth: [(String, @MainActor () async -> Void)] = [
    ("search (2 racing answers)", { await typeTwoLetters() }),
    ("5 effects woken together", { await wake(5) }),
  ]
  for (name, scenario) in growth {
    for bound in 0...4 {
      let report = await exploreInterleavings(.exhaustive(maxDeviations: bound, maxSchedules: 100_000)) {
        await scenario()
      }
      if json {
        lines.append(
          "{\"case\":\"\(name)\",\"bound\":\(bound),\"schedules\":\(report.schedulesRun),"
            + "\"complete\":\(report.isComplete)}")
      } else {
        lines.append("| \(name) | \(bound) | \(report.schedulesRun) | \(report.isComplete ? "yes" : "no") |")
      }
    }
  }
  print(lines.joined(separator: "\n"))
}

await main()

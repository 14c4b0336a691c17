import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Unidirectional
import UnidirectionalTesting

// The TestStore's own cost: a `send` (and a `send` + `receive`) asserted exhaustively, next to the same action sent to
// a live `Store` in the same run (the raw baseline); and generated action sequences per second, next to the same
// number of sends written by hand. All interleaved round by round.
//
//   swift run -c release UnidirectionalTestingBench [--json]
//   .build/release/UnidirectionalTestingBench --profile CASE N    runs only CASE's body for N operations, for
//     `valgrind --tool=callgrind` (instructions per operation: the difference of two N, divided by their difference;
//     timing on a machine shared with other builds moves by more than the 5 % a change must stay within)
//
// An executable of its own, not a case of `unidirectional-bench`: the TestStore is in UnidirectionalTesting, which
// links XCTest and Swift Testing, and `unidirectional-bench` is a product that must not need either.

let json = CommandLine.arguments.contains("--json")

struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    @Shared var total: Int
  }
  enum Action: Equatable {
    case increment, ping, pong, bumpShared
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment, .pong:
      state.count &+= 1
      return .none
    case .ping:
      return .send(.pong)
    case .bumpShared:
      state.$total.withLock { $0 &+= 1 }
      return .none
    }
  }
}

/// The same counter in a state that is not `Equatable` (it holds a closure): the TestStore compares dumps.
struct ClosureCounter: Reducer {
  struct State {
    var count = 0
    var onChange: @Sendable (Int) -> Void = { _ in }
  }
  enum Action: Equatable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

/// CPU time used by the process so far, in nanoseconds: the machine is shared with other work.
func cpuNanoseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// One measured case: CPU nanoseconds per operation of `body`, which runs `operations` operations, against the case
/// named `baseline`.
struct Case {
  let name: String
  let operations: Int
  let baseline: String
  let body: @Sendable (Int) async -> Void
}

func liveStoreSends(_ count: Int) async {
  let store = Store(initialState: Counter.State(total: Shared(value: 0))) { Counter() }
  for _ in 0..<count { store.send(.increment) }
  if store.state.count != count { fatalError("the live store lost sends") }
}

func testStoreSends(_ count: Int) async {
  let store = TestStore(initialState: Counter.State(total: Shared(value: 0))) { Counter() }
  for _ in 0..<count { await store.send(.increment) { $0.count &+= 1 } }
}

func testStoreSendReceives(_ count: Int) async {
  let store = TestStore(initialState: Counter.State(total: Shared(value: 0))) { Counter() }
  for _ in 0..<count {
    await store.send(.ping)
    await store.receive(.pong) { $0.count &+= 1 }
  }
}

func testStoreSharedSends(_ count: Int) async {
  let store = TestStore(initialState: Counter.State(total: Shared(value: 0))) { Counter() }
  for _ in 0..<count { await store.send(.bumpShared) { $0.$total.withLock { $0 &+= 1 } } }
}

func testStoreNonEquatableSends(_ count: Int) async {
  let store = TestStore(initialState: ClosureCounter.State()) { ClosureCounter() }
  for _ in 0..<count { await store.send(.increment) { $0.count &+= 1 } }
}

/// Every case, each after its baseline.
func allCases(operations: Int) -> [Case] {
  let send = "store_send"
  let handwritten = "handwritten_sequence"
  return [
    Case(name: send, operations: operations, baseline: send, body: liveStoreSends),
    Case(name: "teststore_send", operations: operations, baseline: send, body: testStoreSends),
    Case(name: "teststore_send_receive", operations: operations, baseline: send, body: testStoreSendReceives),
    Case(name: "teststore_send_shared", operations: operations, baseline: send, body: testStoreSharedSends),
    Case(name: "teststore_send_nonequatable", operations: operations, baseline: send, body: testStoreNonEquatableSends),
    Case(name: handwritten, operations: operations / 20, baseline: handwritten, body: handwrittenSequences),
    Case(name: "generated_sequence", operations: operations / 20, baseline: handwritten, body: generatedSequences),
  ]
}

func main() async {
  let operations = 2_000
  let cases = allCases(operations: operations)
  let arguments = CommandLine.arguments
  if let flag = arguments.firstIndex(of: "--profile"), arguments.count > flag + 2 {
    guard let profiled = cases.first(where: { $0.name.hasPrefix(arguments[flag + 1]) }),
      let count = Int(arguments[flag + 2])
    else {
      print("usage: --profile CASE N, CASE one of: \(cases.map(\.name).joined(separator: ", "))")
      exit(2)
    }
    await profiled.body(count)
    // At once: valgrind stops with an internal error when the main thread waits in Dispatch's main loop after it.
    exit(0)
  }
  // Warm-up, then rounds that interleave the cases, so that a busy moment of the machine hits them all.
  for testCase in cases { await testCase.body(200) }
  var samples = Array(repeating: [Double](), count: cases.count)
  for _ in 0..<15 {
    for (index, testCase) in cases.enumerated() {
      let start = cpuNanoseconds()
      await testCase.body(testCase.operations)
      samples[index].append((cpuNanoseconds() - start) / Double(testCase.operations))
    }
  }
  var lines = json ? [] : ["| case | CPU ns/op | per CPU-second | baseline | ratio |", "|---|---:|---:|---|---:|"]
  for (index, testCase) in cases.enumerated() {
    let nanoseconds = median(samples[index])
    let baseline = cases.firstIndex { $0.name == testCase.baseline }.map { median(samples[$0]) } ?? nanoseconds
    let ratio = ((nanoseconds / baseline) * 100).rounded() / 100
    let perSecond = Int((1e9 / nanoseconds).rounded())
    if json {
      lines.append(
        "{\"case\":\"\(testCase.name)\",\"ns_per_op\":\(Int(nanoseconds.rounded())),\"per_second\":\(perSecond),"
          + "\"baseline\":\"\(testCase.baseline)\",\"ratio\":\(ratio)}")
    } else {
      lines.append(
        "| \(testCase.name) | \(Int(nanoseconds.rounded())) | \(perSecond) | \(testCase.baseline) | \(ratio)× |")
    }
  }
  print(lines.joined(separator: "\n"))
}

// Run from a plain main thread that waits, not from an async main: Linux's async main parks the main thread in
// Dispatch's main loop, which valgrind (3.19) fails on while Dispatch starts worker threads.
let finished = DispatchSemaphore(value: 0)
Task.detached {
  await main()
  finished.signal()
}
finished.wait()

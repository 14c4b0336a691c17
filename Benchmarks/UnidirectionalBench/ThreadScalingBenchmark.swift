import Foundation
import Unidirectional

/// `unidirectional-bench stores`: many stores driven from many threads. Each thread sends to a store of its own;
/// the figure is the time per send over all threads together against one thread doing the same alone, next to the
/// same two figures for the floor (a locked increment of an object of each thread's own). On N free cores a send
/// path with no process-wide lock or cache takes 1/N of the one-thread time: ≥ 1.8× the throughput on two cores is a
/// ratio ≤ 0.56.
enum ThreadScalingBenchmark {
  static func all(threads: Int = ProcessInfo.processInfo.activeProcessorCount, sends: Int = 2_000_000)
    -> [BenchmarkResult]
  {
    let threads = max(threads, 2)
    var storeOne: [Double] = []
    var storeMany: [Double] = []
    var floorOne: [Double] = []
    var floorMany: [Double] = []
    // Interleaved rounds, the best of each: the host's other work only ever slows a round down.
    for _ in 0..<5 {
      storeOne.append(nanosecondsPerSend(threads: 1, sends: sends, makeSender: storeSender))
      storeMany.append(nanosecondsPerSend(threads: threads, sends: sends, makeSender: storeSender))
      floorOne.append(nanosecondsPerSend(threads: 1, sends: sends, makeSender: floorSender))
      floorMany.append(nanosecondsPerSend(threads: threads, sends: sends, makeSender: floorSender))
    }
    return [
      BenchmarkResult(
        name: "stores_\(threads)_threads_send (a store per thread, per send over all threads)",
        nsPerOp: storeMany.min() ?? 0, baselineName: "the same sends on one thread",
        baselineNsPerOp: storeOne.min() ?? 1, target: "≤ 0.56× (≥ 1.8× the throughput on 2 cores)"),
      BenchmarkResult(
        name: "floor: \(threads) threads, locked increment (an object per thread)",
        nsPerOp: floorMany.min() ?? 0, baselineName: "the same increments on one thread",
        baselineNsPerOp: floorOne.min() ?? 1, target: "reference: what the cores allow"),
    ]
  }

  /// A thread's sender: one store of its own, one action per call.
  private static func storeSender() -> () -> Void {
    let store = Store(initialState: ManyStoresBenchmarks.Session()) { ManyStoresBenchmarks.SessionFeature() }
    return { store.send(.increment) }
  }

  /// The floor's sender: one object of its own with the same state and a lock.
  private static func floorSender() -> () -> Void {
    let session = ManyStoresBenchmarks.LockedSession()
    return { session.increment() }
  }

  /// Nanoseconds per send over all threads: `threads` threads, started together, each making `sends / threads`
  /// calls of its own sender (made on that thread before the clock starts).
  private static func nanosecondsPerSend(threads: Int, sends: Int, makeSender: @escaping @Sendable () -> () -> Void)
    -> Double
  {
    let perThread = sends / threads
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for _ in 0..<threads {
      done.enter()
      let thread = Thread {
        let send = makeSender()
        ready.signal()
        go.wait()
        for _ in 0..<perThread { send() }
        done.leave()
      }
      thread.start()
    }
    for _ in 0..<threads { ready.wait() }
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<threads { go.signal() }
    done.wait()
    let end = DispatchTime.now().uptimeNanoseconds
    return Double(end - start) / Double(perThread * threads)
  }
}

import Foundation
import Unidirectional

/// Shared state and identified arrays against their plain counterparts: a `@Shared` read and a `withLock` write
/// against a plain property (with two references for the read: one shared value read through many copies, and a
/// plain object's property), `IdentifiedArray.sort` against `Array.sort`, and how many writes a debounced
/// `.fileStorage` makes for 1,000 changes.
enum SharingBenchmarks {
  struct PlainState {
    var count = 0
  }

  struct SharedState {
    @Shared var count: Int
  }

  /// A plain object's property: the floor of any read through a reference to one of many objects.
  final class Counter {
    var count: Int
    init(count: Int) { self.count = count }
  }

  struct Row: Identifiable, Sendable {
    let id: Int
    var rank: Int
  }

  // Reads of a state as a reducer reads its state, `inout` (each an element of a table, read in place): read from a
  // copy, or from memory the compiler cannot prove unchanged during the read, a state holding references retains
  // and releases them around the read, which neither the plain side nor a reducer's read pays.

  @inline(never)
  static func readPlain(_ state: inout PlainState) -> Int { state.count }

  @inline(never)
  static func readShared(_ state: inout SharedState) -> Int { state.count }

  @inline(never)
  static func readObject(_ counter: inout Counter) -> Int { counter.count }

  @inline(never)
  static func writePlain(_ state: inout PlainState) { state.count &+= 1 }

  @inline(never)
  static func writeShared(_ state: SharedState) { state.$count.withLock { $0 &+= 1 } }

  /// Loops one case for a profiler; false for a name that is not a sharing case.
  static func profile(_ name: String, iterations: Int) -> Bool {
    switch name {
    case "shared_read":
      let state = table([SharedState(count: Shared(value: 0))])
      defer { free(state, count: 1) }
      var sum = 0
      for _ in 0..<iterations { sum &+= readShared(&state[0]) }
      blackHole(sum)
    case "shared_write":
      let state = opaque(SharedState(count: Shared(value: 0)))
      for _ in 0..<iterations { writeShared(state) }
    case "identified_sort":
      var generator = SeededGenerator(seed: 42)
      let rows = (0..<10_000).map { Row(id: $0, rank: Int.random(in: 0..<1_000_000, using: &generator)) }
      let identified = IdentifiedArray(uniqueElements: rows)
      for _ in 0..<max(1, iterations / 10_000) {
        var copy = opaque(identified)
        copy.sort { $0.rank < $1.rank }
        blackHole(copy)
      }
    default:
      return false
    }
    return true
  }

  static func all(rounds: Int) async -> [BenchmarkResult] {
    let iterations = 2_000_000
    // Each read takes a different value from a small table: a read of one loop-invariant value is hoisted out of
    // the loop (0 ns per read), the table keeps both sides honest at the same cost of one index.
    let plainStates = table((0..<1_024).map { PlainState(count: $0) })
    let sharedStates = table((0..<1_024).map { SharedState(count: Shared(value: $0)) })
    // References: one shared value read through 1,024 copies (what a read costs when its value is in the cache),
    // and a plain object's property read through 1,024 objects (what reaching 1,024 objects costs by itself).
    let oneShared = Shared(value: 7)
    let sameSharedStates = table((0..<1_024).map { _ in SharedState(count: oneShared) })
    let objects = table((0..<1_024).map { Counter(count: $0) })
    defer {
      free(plainStates, count: 1_024)
      free(sharedStates, count: 1_024)
      free(sameSharedStates, count: 1_024)
      free(objects, count: 1_024)
    }
    // Interleaved rounds: a slow moment of the machine slows both sides alike.
    var plainReads: [Double] = []
    var sharedReads: [Double] = []
    var oneSharedReads: [Double] = []
    var objectReads: [Double] = []
    for _ in 0..<rounds {
      var sum = 0
      var index = 0
      plainReads.append(
        measure(iterations: iterations) {
          sum &+= readPlain(&plainStates[index & 1_023])
          index &+= 1
        })
      index = 0
      sharedReads.append(
        measure(iterations: iterations) {
          sum &+= readShared(&sharedStates[index & 1_023])
          index &+= 1
        })
      index = 0
      oneSharedReads.append(
        measure(iterations: iterations) {
          sum &+= readShared(&sameSharedStates[index & 1_023])
          index &+= 1
        })
      index = 0
      objectReads.append(
        measure(iterations: iterations) {
          sum &+= readObject(&objects[index & 1_023])
          index &+= 1
        })
      blackHole(sum)
    }
    let plainRead = medianOf(plainReads)
    let sharedRead = medianOf(sharedReads)
    let plainWrite = await median(rounds: rounds) {
      var state = opaque(PlainState())
      let result = measure(iterations: iterations) { writePlain(&state) }
      blackHole(state)
      return result
    }
    let sharedWrite = await median(rounds: rounds) {
      let state = opaque(SharedState(count: Shared(value: 0)))
      return measure(iterations: iterations) { writeShared(state) }
    }

    var generator = SeededGenerator(seed: 42)
    let rows = (0..<10_000).map { Row(id: $0, rank: Int.random(in: 0..<1_000_000, using: &generator)) }
    let identified = IdentifiedArray(uniqueElements: rows)
    let arraySort = await median(rounds: rounds) {
      measure(iterations: 20) {
        var copy = opaque(rows)
        copy.sort { $0.rank < $1.rank }
        blackHole(copy)
      }
    }
    let identifiedSort = await median(rounds: rounds) {
      measure(iterations: 20) {
        var copy = opaque(identified)
        copy.sort { $0.rank < $1.rank }
        blackHole(copy)
      }
    }

    let (writes, perChange) = await fileStorageCoalescing(changes: 1_000)

    return [
      BenchmarkResult(
        name: "shared_read", nsPerOp: sharedRead, baselineName: "plain property read", baselineNsPerOp: plainRead,
        target: "≤ 10× plain read"),
      BenchmarkResult(
        name: "shared_read, one value (1,024 copies of one Shared)", nsPerOp: medianOf(oneSharedReads),
        baselineName: "plain property read", baselineNsPerOp: plainRead, target: "reference: the read in cache"),
      BenchmarkResult(
        name: "class property read (1,024 objects)", nsPerOp: medianOf(objectReads),
        baselineName: "plain property read", baselineNsPerOp: plainRead,
        target: "reference: reaching 1,024 objects"),
      BenchmarkResult(
        name: "shared_withLock_write", nsPerOp: sharedWrite, baselineName: "plain property write",
        baselineNsPerOp: plainWrite, target: "ratio reported"),
      BenchmarkResult(
        name: "identified_sort_10k", nsPerOp: identifiedSort, baselineName: "Array.sort 10k",
        baselineNsPerOp: arraySort, target: "≤ 3× Array.sort"),
      BenchmarkResult(
        name: "file_storage_1000_changes (disk writes: \(writes))", nsPerOp: perChange,
        baselineName: "shared_withLock_write", baselineNsPerOp: sharedWrite, target: "1 disk write"),
    ]
  }

  /// 1,000 changes to a `.fileStorage` value on the real disk within one debounce window of a `TestClock`: the
  /// file does not exist until the window ends (no write), then holds the last value (one write). Returns the
  /// writes so counted and the cost per change.
  static func fileStorageCoalescing(changes: Int) async -> (writes: Int, nsPerChange: Double) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("count.json")
    let clock = TestClock()
    let count = withDependencies {
      $0.defaultFileStorage = .fileSystem(debounce: .seconds(1))
      $0.clock = clock
    } operation: {
      Shared(wrappedValue: 0, .fileStorage(url))
    }
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<changes { count.withLock { $0 &+= 1 } }
    let end = DispatchTime.now().uptimeNanoseconds
    let writesBefore = FileManager.default.fileExists(atPath: url.path) ? 1 : 0
    await clock.advance(by: .seconds(1))
    let saved = (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(Int.self, from: $0) }
    precondition(saved == changes, "the coalesced write did not hold the last value")
    return (writesBefore + 1, Double(end - start) / Double(changes))
  }
}

/// `values` in memory of their own, hidden from the optimizer (free it with `free(_:count:)`).
private func table<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
  let pointer = UnsafeMutablePointer<T>.allocate(capacity: values.count)
  pointer.initialize(from: values, count: values.count)
  return opaque(pointer)
}

private func free<T>(_ pointer: UnsafeMutablePointer<T>, count: Int) {
  pointer.deinitialize(count: count)
  pointer.deallocate()
}

/// A deterministic random number generator (SplitMix64), so every run sorts the same rows.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

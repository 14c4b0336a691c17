import Foundation
import Unidirectional

/// `unidirectional-bench stores`: what a store per session costs on a server that holds many — resident memory per
/// idle store and per long-living effect, the time to create a store, one action to each store in turn, and whether
/// memory returns once the stores go — each next to its floor in plain Swift, measured in the same run.
enum ManyStoresBenchmarks {
  /// A session's state: three fields.
  struct Session: Equatable, Sendable {
    var count = 0
    var name = "session"
    var isActive = false
  }

  enum SessionAction: Sendable {
    case increment
    case listen(AsyncStream<Int>)
  }

  struct SessionFeature: Reducer {
    func reduce(into state: inout Session, action: SessionAction) -> Effect<SessionAction> {
      switch action {
      case .increment:
        state.count &+= 1
        return .none
      case let .listen(stream):
        return .run { _ in for await _ in stream {} }
      }
    }
  }

  /// The floor of an idle store: an object holding the same state and a lock.
  final class LockedSession: @unchecked Sendable {
    var state = Session()
    let lock = NSLock()
    func increment() {
      lock.lock()
      state.count &+= 1
      lock.unlock()
    }
  }

  /// Loops one case for a profiler (`--profile store_create 10000`): makes `iterations` idle stores and keeps them,
  /// or (`store_effects`) starts `iterations` long-living effects in one store.
  static func profile(_ name: String, iterations: Int) -> Bool {
    switch name {
    case "store_create":
      let stores = (0..<iterations).map { _ in Store(initialState: Session()) { SessionFeature() } }
      blackHole(stores)
    case "store_effects":
      // One store with `iterations` long-living effects, each awaiting a stream of its own.
      let store = Store(initialState: Session()) { SessionFeature() }
      let streams = (0..<iterations).map { _ in AsyncStream<Int>.makeStream() }
      for (stream, _) in streams { store.send(.listen(stream)) }
      Thread.sleep(forTimeInterval: 0.5)
      for (_, continuation) in streams { continuation.finish() }
      Thread.sleep(forTimeInterval: 0.5)
    default:
      return false
    }
    return true
  }

  static func all(counts: [Int] = [100_000, 1_000_000]) async -> [BenchmarkResult] {
    var results: [BenchmarkResult] = []
    for count in counts {
      results += await measure(count: count)
    }
    return results
  }

  private static func measure(count: Int) async -> [BenchmarkResult] {
    let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1_000)k"

    // Released first, before anything else freed memory the stores could reuse: memory returns to where it started.
    returnFreedMemory()
    let beforeRelease = residentMemory() ?? 0
    var released: [Store<Session, SessionAction>]? = (0..<count).map { _ in
      Store(initialState: Session()) { SessionFeature() }
    }
    let held = (residentMemory() ?? 0) - beforeRelease
    released = nil
    blackHole(released)
    returnFreedMemory()
    let afterRelease = (residentMemory() ?? 0) - beforeRelease

    // Idle: memory per object, and the time to make each.
    let (floorBytes, floorCreate, floors) = make(count) { LockedSession() }
    let (storeBytes, storeCreate, stores) = make(count) {
      Store(initialState: Session()) { SessionFeature() }
    }

    // One action to each in turn (cache-cold: the next object is another one).
    let floorSend = time(count) { floors[$0].increment() }
    let storeSend = time(count) { stores[$0].send(.increment) }

    // One long-living effect each: a bare task awaiting a stream, and a store's `.run` awaiting one.
    let effectCount = min(count, 100_000)
    let (taskBytes, tasks) = await longLiving(effectCount) { stream in Task { for await _ in stream {} } }
    // The same with one task-local value bound (an effect's dependencies are one): a task with any task-local
    // takes a stack slab of its own for it, about 1 KB.
    let (localTaskBytes, localTasks) = await longLiving(effectCount) { stream in
      TaskLocalFloor.$marker.withValue(1) { Task { for await _ in stream {} } }
    }
    let (effectBytes, effects) = await longLiving(effectCount) { stream in
      stores[0].send(.listen(stream))
    }
    finish(tasks)
    finish(localTasks)
    finish(effects)

    blackHole(floors)
    blackHole(stores)

    return [
      BenchmarkResult(
        name: "stores_\(label)_idle_bytes", nsPerOp: storeBytes, baselineName: "object with the state and a lock",
        baselineNsPerOp: floorBytes, target: "≤ 3× (bytes per store, resident)"),
      BenchmarkResult(
        name: "stores_\(label)_create", nsPerOp: storeCreate, baselineName: "object with the state and a lock",
        baselineNsPerOp: floorCreate, target: "≤ 1,000 ns"),
      BenchmarkResult(
        name: "stores_\(label)_send_each", nsPerOp: storeSend, baselineName: "locked increment of each object",
        baselineNsPerOp: floorSend, target: "context"),
      BenchmarkResult(
        name: "stores_\(label)_effect_bytes", nsPerOp: effectBytes / Double(effectCount),
        baselineName: "bare Task awaiting a stream", baselineNsPerOp: taskBytes / Double(effectCount),
        target: "≤ 1.5× (bytes per long-living effect, resident)"),
      BenchmarkResult(
        name: "stores_\(label)_effect_bytes_vs_task_local", nsPerOp: effectBytes / Double(effectCount),
        baselineName: "bare Task with a task-local, awaiting a stream",
        baselineNsPerOp: localTaskBytes / Double(effectCount), target: "floor with the effect's dependencies bound"),
      BenchmarkResult(
        name: "stores_\(label)_released_bytes", nsPerOp: Double(max(afterRelease, 0)),
        baselineName: "bytes held while alive", baselineNsPerOp: Double(max(held, 1)),
        target: "≈ 0 (memory returns)"),
    ]
  }

  /// Makes `count` objects; returns resident bytes per object, nanoseconds per object, and the objects.
  private static func make<T>(_ count: Int, _ body: () -> T) -> (Double, Double, [T]) {
    returnFreedMemory()
    let before = residentMemory() ?? 0
    var objects: [T] = []
    objects.reserveCapacity(count)
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { objects.append(body()) }
    let end = DispatchTime.now().uptimeNanoseconds
    let after = residentMemory() ?? 0
    // The array itself holds a pointer per object: not part of what an object costs.
    let bytes = Double(after - before - count * MemoryLayout<T>.stride) / Double(count)
    return (bytes, Double(end - start) / Double(count), objects)
  }

  /// Starts `count` long-living waits with `body`, each on a stream of its own; returns the resident bytes they
  /// hold and the streams' continuations (finish them to end the waits).
  private static func longLiving(_ count: Int, _ body: (AsyncStream<Int>) -> Any) async -> (
    Double, [AsyncStream<Int>.Continuation]
  ) {
    let streams = (0..<count).map { _ in AsyncStream<Int>.makeStream() }
    returnFreedMemory()
    let before = residentMemory() ?? 0
    var handles: [Any] = []
    handles.reserveCapacity(count)
    for (stream, _) in streams { handles.append(body(stream)) }
    // Let every task reach its wait.
    try? await Task.sleep(for: .milliseconds(200))
    let after = residentMemory() ?? 0
    blackHole(handles)
    return (Double(after - before - count * MemoryLayout<Any>.stride), streams.map(\.continuation))
  }

  private static func finish(_ continuations: [AsyncStream<Int>.Continuation]) {
    for continuation in continuations { continuation.finish() }
  }

  /// Nanoseconds per call of `body` over indices `0..<count`.
  private static func time(_ count: Int, _ body: (Int) -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for index in 0..<count { body(index) }
    let end = DispatchTime.now().uptimeNanoseconds
    return Double(end - start) / Double(count)
  }
}

/// A task-local value for the effect floor: bound around a task's creation, as a store binds an effect's dependencies.
enum TaskLocalFloor {
  @TaskLocal static var marker = 0
}

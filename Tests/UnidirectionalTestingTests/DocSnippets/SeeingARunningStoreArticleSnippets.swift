// swift-format-ignore-file
// The "Seeing a running store" article's code (Sources/Unidirectional/Unidirectional.docc/SeeingARunningStore.md),
// compiled and run here; Scripts/tests/test_doc_snippets.py checks that the article shows it verbatim. Not
// reformatted by swift-format, so that the article and this file stay the same text.
import Foundation
import Testing
import Unidirectional

@Suite struct SeeingARunningStoreArticleSnippets {
  struct Counter: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case incrementTapped }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  final class SlowActionLogger: StoreInstrument, @unchecked Sendable {
    var measuresTime: Bool { true }
    func didReduce(_ action: Counter.Action, _ reduction: Reduction, state: ReducedState<Counter.State>) {
      if let timing = reduction.timing, timing.nanoseconds > 1_000_000 { print("slow: \(describe(action))") }
    }
  }

  final class StepWatcher: StoreInstrument, @unchecked Sendable {
    let stepBuffer: StepBuffer<Counter.State, Counter.Action>? = StepBuffer(capacity: 4_096)
    func didReduce(_ action: Counter.Action, _ reduction: Reduction, state: ReducedState<Counter.State>) {
      stepBuffer?.append(action, reduction: reduction, state: state)  // only with other instruments beside it
    }
  }

  @Test func aStepWatcherTakesTheStepsTheStoreCopied() {
    let watcher = StepWatcher()
    let alone = Store(initialState: Counter.State(), instruments: [watcher]) { Counter() }
    alone.send(.incrementTapped)
    let beside = StepWatcher()
    let shared = Store(initialState: Counter.State(), instruments: [beside, SlowActionLogger()]) { Counter() }
    shared.send(.incrementTapped)
    shared.send(.incrementTapped)
    let counts = [watcher, beside].map { $0.stepBuffer?.take { steps in steps.map(\.state.count) } ?? [] }
    #expect(counts == [[1], [1, 2]])
  }

  @Test func theThreeWaysWatchTheSameStore() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seeing-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let traceURL = directory.appendingPathComponent("run.trace.json")

    // Each action and only what it changed (secrets redacted), formatted and written on a background queue.
    let store = Store(initialState: Counter.State()) { Counter().printChanges() }

    // A timeline: Chrome Trace Event JSON, which ui.perfetto.dev and chrome://tracing open.
    let tracer = try StoreTracer(fileURL: traceURL)
    let traced = Store(initialState: Counter.State(), instruments: [tracer.instrument(for: Counter.self)]) { Counter() }
    traced.send(.incrementTapped)
    try tracer.close()

    // Anything else: a StoreInstrument sees every reduction (sequence, sent/received, the effect that fed it back,
    // optionally the reducer's time) and every effect started, cancelled and finished, in order, under the store's lock.
    let watched = Store(initialState: Counter.State(), instruments: [SlowActionLogger()]) { Counter() }

    store.send(.incrementTapped)
    watched.send(.incrementTapped)
    let counts: [Int] = [store.count, traced.count, watched.count]
    #expect(counts == [1, 1, 1])
    #expect(try String(contentsOf: traceURL, encoding: .utf8).contains("incrementTapped"))
  }
}

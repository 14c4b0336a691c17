import Foundation
import Unidirectional
import UnidirectionalActionLog

/// A tiny counter with a timer effect: the smallest headless host (state changes printed as they happen).
struct CounterCommand: DemoCommand {
  static let name = "counter"
  static let summary = "count to --to N on a timer, printing each state change"
  static let synopsis = "demo counter [OPTIONS]"
  static let usage = """
    --to N          how far to count (default 3)
    --interval MS   milliseconds between ticks (default 100)
    """ + "\n" + RecordDestination.usage + "\n" + HostInstruments.usage(column: 16)

  static func run(arguments: [String]) async -> Int32 {
    let target: Int
    let interval: Int
    let destination: RecordDestination?
    let options: OptionParser
    do {
      options = try OptionParser(
        arguments,
        valueOptions: HostInstruments.valueOptions.union(["--to", "--interval", RecordDestination.valueOption]),
        flagOptions: HostInstruments.flagOptions.union([RecordDestination.forceFlag]))
      guard options.positional.isEmpty else { throw UsageError("unexpected argument \(options.positional[0])") }
      guard let to = Int(options.values["--to"] ?? "3"), (1...1_000).contains(to) else {
        throw UsageError("--to must be a whole number from 1 to 1000")
      }
      guard let ms = Int(options.values["--interval"] ?? "100"), (0...10_000).contains(ms) else {
        throw UsageError("--interval must be milliseconds from 0 to 10000")
      }
      (target, interval) = (to, ms)
      destination = try RecordDestination(options)
    } catch {
      return usageFailure(error)
    }

    var recorder: ActionRecorder?
    let instruments: HostInstruments
    do {
      recorder = try destination?.makeRecorder(feature: "TimerCounter")
      instruments = try HostInstruments(options, command: name)
    } catch {
      FileHandle.standardError.write(Data("demo counter: \(error)\n".utf8))
      return 1
    }
    defer { instruments.finish() }
    let storeInstruments = instruments.instruments(for: TimerCounter.self)
    let store: Store<TimerCounter.State, TimerCounter.Action>
    if let recorder {
      store = Store(
        initialState: TimerCounter.State(target: target), recordingTo: recorder, instruments: storeInstruments
      ) {
        TimerCounter(interval: .milliseconds(interval)).printChanges(to: instruments.printer)
      }
    } else {
      store = Store(initialState: TimerCounter.State(target: target), instruments: storeInstruments) {
        TimerCounter(interval: .milliseconds(interval)).printChanges(to: instruments.printer)
      }
    }
    let printer = Task {
      for await state in store.states {
        print("count: \(state.count)\(state.isRunning ? "" : " (stopped)")")
        if state.count >= target { return }
      }
    }
    await store.send(.start).finish()
    await printer.value
    print("done: counted to \(store.count)")
    if let recorder {
      do {
        try await recorder.close()
      } catch {
        FileHandle.standardError.write(Data("demo counter: \(error)\n".utf8))
        return 1
      }
      print("recorded \(recorder.writtenCount) actions to \(recorder.fileURL.path)")
    }
    return 0
  }
}

/// Counts up on the injected clock until it reaches its target.
struct TimerCounter: Reducer {
  struct State: Equatable, Sendable, Codable {
    var count = 0
    var target: Int
    var isRunning = false
  }

  enum Action: Equatable, Sendable, Codable {
    case start
    case tick
  }

  let interval: Duration
  /// How much each tick adds (`demo replay --changed-counter` replays through a counter that adds 2).
  var tickSize = 1
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.isRunning = true
      let (target, interval, clock) = (state.target, interval, clock)
      return .run { send in
        for _ in 0..<target {
          try await clock.sleep(for: interval)
          send(.tick)
        }
      }
    case .tick:
      // Replayed logs are anyone's input: a count at the end of Int's range stays there instead of trapping.
      let (sum, overflow) = state.count.addingReportingOverflow(tickSize)
      state.count = overflow ? (tickSize < 0 ? .min : .max) : sum
      state.isRunning = state.count < state.target
      return .none
    }
  }
}

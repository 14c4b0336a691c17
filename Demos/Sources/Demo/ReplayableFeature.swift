import Foundation
import Unidirectional
import UnidirectionalActionLog
import UnidirectionalInspector

/// A feature whose action logs `demo replay` can replay: its name (as in a log's header) and its reducer.
///
/// ```swift
/// ReplayableFeature(TimerCounter(interval: .zero))   // replays logs whose header says "TimerCounter"
/// ```
struct ReplayableFeature {
  /// The feature name logs are recorded under.
  let name: String
  /// Replays the log at a URL as the options say, printing as it goes; returns the outcome.
  let replay: (URL, ReplayOptions) -> ReplayOutcome
  /// `demo inspect`: the log at a URL opened for the inspector (with the run's trace, if given); given the feature
  /// as it was when recording, the log is replayed through this one as a changed reducer.
  let inspector: (URL, _ recorded: ReplayableFeature?, _ trace: URL?) throws(InspectorError) -> InspectedLog
  /// `demo replay --emit-test`: the Swift Testing test of the log at a URL, or why there is none.
  let emitTest: (URL) -> Result<String, ActionLogTestWriterError>
  /// The reducer, for ``inspector`` of a changed feature of the same type.
  private let reducer: Any

  /// Registers `reducer` under `name`, by default its type's name (what `ActionRecorder` writes by default); `test`
  /// says how a test written from one of its logs is made, given the log's initial state.
  init<R: Reducer>(
    _ reducer: R, name: String? = nil, test: ((R.State) -> ActionLogTestWriter.Configuration)? = nil
  ) where R.State: Codable, R.Action: Codable {
    self.name = name ?? ActionRecorder.defaultFeatureName(for: R.self)
    self.replay = { url, options in LogReplayer(url: url, reducer: reducer, options: options).run() }
    let feature = self.name
    self.emitTest = { url in
      Result { () throws(ActionLogTestWriterError) -> String in
        guard let test else {
          throw .unencodable("demo knows no test target for \(feature)'s logs (only ScanFeature's: `demo --record`)")
        }
        let initialState: R.State
        do throws(ActionLogError) {
          initialState = try ActionLogReplay(contentsOf: url, reducer: reducer).initialState
        } catch {
          throw .log(error)
        }
        return try ActionLogTestWriter.source(fromLog: url, reducer: reducer, configuration: test(initialState))
      }
    }
    self.reducer = reducer
    self.inspector = { url, recorded, trace throws(InspectorError) in
      let model = try InspectorLogModel(
        contentsOf: url, reducer: reducer, recordedReducer: recorded?.reducer as? R, trace: trace)
      return InspectedLog(stepCount: model.stepCount, effectCount: model.effectCount, traceError: model.traceError) {
        port throws(InspectorError) in try InspectorServer(model: model, port: port)
      }
    }
  }

  /// An action log opened for the inspector, whatever the feature's types: what `demo inspect` says about it, and
  /// how to serve it.
  struct InspectedLog {
    let stepCount: Int
    /// The effects of the run's trace (0 without one).
    let effectCount: Int
    /// Why the trace could not be read, if it could not (the log opens without the effect timeline).
    let traceError: InspectorTraceError?
    /// Serves the log on 127.0.0.1 (`port` 0: a free one).
    let serve: (_ port: UInt16) throws(InspectorError) -> InspectorServer
  }
}

/// How `demo replay` replays.
struct ReplayOptions {
  /// Print only the header line, divergences and the summary, not every step.
  var quiet = false
  /// Stop after this step and print the full state there (0: the initial state).
  var until: Int?
  /// Stop after this step and write the state there as JSON to the file.
  var export: (step: Int, url: URL)?
  /// Step through the log interactively, reading commands with `readCommand`.
  var interactive = false
  /// Reads one command line (standard input); `nil` at its end.
  var readCommand: () -> String? = { readLine() }
}

/// What a replay found.
struct ReplayOutcome {
  /// Steps replayed (before the error, if any).
  let steps: Int
  /// The first divergence, described.
  let divergence: String?
  /// Why replay stopped early.
  let error: String?
  /// The step replay was asked to stop at (`--until`, `--export-state`), if it got there.
  var stoppedAt: Int?
}

/// Replays one log through one reducer for `demo replay`.
private struct LogReplayer<R: Reducer> where R.State: Codable, R.Action: Decodable {
  let url: URL
  let reducer: R
  let options: ReplayOptions

  func run() -> ReplayOutcome {
    let replay: ActionLogReplay<R>
    do {
      replay = try ActionLogReplay(contentsOf: url, reducer: reducer)
    } catch {
      return ReplayOutcome(steps: 0, divergence: nil, error: "\(error)")
    }
    let fingerprints = replay.header.fingerprintAlgorithm.map { "fingerprints \($0)" } ?? "no fingerprints"
    // The feature's name was matched against a registered one; everything else printed here comes from the log
    // and goes through TerminalText.
    print("replaying \(TerminalText.line(url.path)): feature \(replay.header.feature), \(fingerprints)")
    if options.interactive { return step(through: replay) }
    if !options.quiet {
      print("initial state:")
      print(TerminalText.lines(indented(customDump(replay.initialState))))
    }
    if let divergence = replay.firstDivergence { print("✗ \(TerminalText.lines(divergence.description))") }
    let stop = options.until ?? options.export?.step
    var last: ActionLogStep<R.State, R.Action>?
    do {
      while stop.map({ replay.stepCount < $0 }) ?? true, let step = try replay.next() {
        last = step
        if !options.quiet { printStep(step) }
        if replay.firstDivergence?.number == step.number {
          print("✗ \(TerminalText.lines(replay.firstDivergence.map(String.init(describing:)) ?? ""))")
        }
      }
    } catch {
      return outcome(replay, error: "\(error)")
    }
    guard let stop else { return outcome(replay) }
    guard replay.stepCount == stop else {
      return outcome(replay, error: "the log has \(replay.stepCount) steps: there is no step \(stop)")
    }
    if options.until != nil { printState(of: replay, after: last) }
    if let export = options.export {
      do {
        try replay.exportState().write(to: export.url)
      } catch {
        return outcome(replay, error: "cannot export the state to \(export.url.path): \(error)")
      }
      print(
        "wrote the state at step \(stop) to \(TerminalText.line(export.url.path)) "
          + "(JSON: decode it as \(typeName(R.State.self)) to start a store from it)")
    }
    var result = outcome(replay)
    result.stoppedAt = stop
    return result
  }

  /// `--step`: one command per line — Enter for the next step, a number to jump to that step, `s` for the full
  /// state, `q` to quit.
  private func step(through first: ActionLogReplay<R>) -> ReplayOutcome {
    var replay = first
    print("initial state:")
    print(TerminalText.lines(indented(customDump(replay.initialState))))
    print("commands: Enter: next step · a step number: jump there and show the state · s: the state · q: quit")
    var reported = replay.firstDivergence != nil
    if let divergence = replay.firstDivergence { print("✗ \(TerminalText.lines(divergence.description))") }
    var last: ActionLogStep<R.State, R.Action>?
    do {
      while true {
        print("step \(replay.stepCount)> ", terminator: "")
        fflush(nil)
        guard let command = options.readCommand()?.trimmingCharacters(in: .whitespaces), command != "q" else {
          print()
          return outcome(replay)
        }
        switch command {
        case "", "n":
          if let step = try replay.next() {
            last = step
            printStep(step)
          } else {
            print("end of the log (\(replay.stepCount) steps)")
          }
        case "s":
          printState(of: replay, after: last)
        default:
          guard let target = Int(command), target >= 0 else {
            print("unknown command \(TerminalText.quoted(command)): Enter, a step number, s or q")
            continue
          }
          if target < replay.stepCount {
            // Back: replay again from the start (the log is streamed, never held in memory).
            replay = try ActionLogReplay(contentsOf: url, reducer: reducer)
            last = nil
          }
          while replay.stepCount < target, let step = try replay.next() { last = step }
          if replay.stepCount < target { print("the log has \(replay.stepCount) steps: showing the last one") }
          printState(of: replay, after: last)
        }
        if !reported, let divergence = replay.firstDivergence {
          reported = true
          print("✗ \(TerminalText.lines(divergence.description))")
        }
      }
    } catch {
      return outcome(replay, error: "\(error)")
    }
  }

  private func printStep(_ step: ActionLogStep<R.State, R.Action>) {
    let seconds = Double(step.time.components.seconds) + Double(step.time.components.attoseconds) / 1e18
    let time = String(format: "%.3f", seconds)
    print("step \(step.number) · \(step.origin.rawValue) · \(time)s · \(TerminalText.line(describe(step.action)))")
    print(step.stateDiff.map { TerminalText.lines($0) } ?? "  (no change)")
  }

  private func printState(of replay: ActionLogReplay<R>, after step: ActionLogStep<R.State, R.Action>?) {
    let after = step.map { " (after \(TerminalText.line(describe($0.action))))" } ?? ""
    print("state at step \(replay.stepCount)\(after):")
    print(TerminalText.lines(indented(customDump(replay.state))))
  }

  private func outcome(_ replay: ActionLogReplay<R>, error: String? = nil) -> ReplayOutcome {
    ReplayOutcome(steps: replay.stepCount, divergence: replay.firstDivergence?.description, error: error)
  }

  private func indented(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
  }
}

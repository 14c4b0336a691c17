import Foundation
import Unidirectional

/// A feature whose action logs `demo replay` can replay: its name (as in a log's header) and its reducer.
///
/// ```swift
/// ReplayableFeature(TimerCounter(interval: .zero))   // replays logs whose header says "TimerCounter"
/// ```
struct ReplayableFeature {
  /// The feature name logs are recorded under.
  let name: String
  /// Replays the log at a URL, printing each step; returns the outcome.
  let replay: (URL, ReplayOptions) -> ReplayOutcome

  /// Registers `reducer` under `name`, by default its type's name (what `ActionRecorder` writes by default).
  init<R: Reducer>(_ reducer: R, name: String? = nil) where R.State: Codable, R.Action: Decodable {
    self.name = name ?? ActionRecorder.defaultFeatureName(for: R.self)
    self.replay = { url, options in Self.replay(url, reducer: reducer, options: options) }
  }

  private static func replay<R: Reducer>(_ url: URL, reducer: R, options: ReplayOptions) -> ReplayOutcome
  where R.State: Codable, R.Action: Decodable {
    let replay: ActionLogReplay<R>
    do {
      replay = try ActionLogReplay(contentsOf: url, reducer: reducer)
    } catch {
      return ReplayOutcome(steps: 0, divergence: nil, error: error)
    }
    let fingerprints = replay.header.fingerprintAlgorithm.map { "fingerprints \($0)" } ?? "no fingerprints"
    // The feature's name was matched against a registered one; everything else printed here comes from the log
    // and goes through TerminalText.
    print("replaying \(TerminalText.line(url.path)): feature \(replay.header.feature), \(fingerprints)")
    if !options.quiet {
      print("initial state:")
      print(TerminalText.lines(indented(customDump(replay.initialState))))
    }
    if let divergence = replay.firstDivergence { print("✗ \(TerminalText.lines(divergence.description))") }
    do {
      while let step = try replay.next() {
        if !options.quiet {
          let seconds = Double(step.time.components.seconds) + Double(step.time.components.attoseconds) / 1e18
          let time = String(format: "%.3f", seconds)
          print("step \(step.number) · \(step.origin.rawValue) · \(time)s · \(TerminalText.line(describe(step.action)))")
          print(step.stateDiff.map { TerminalText.lines($0) } ?? "  (no change)")
        }
        if step.matchesRecording == false, replay.firstDivergence?.number == step.number {
          print("✗ \(TerminalText.lines(replay.firstDivergence.map(String.init(describing:)) ?? ""))")
        }
      }
    } catch {
      return ReplayOutcome(steps: replay.stepCount, divergence: replay.firstDivergence?.description, error: error)
    }
    return ReplayOutcome(steps: replay.stepCount, divergence: replay.firstDivergence?.description, error: nil)
  }

  private static func indented(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
  }
}

/// How `demo replay` prints.
struct ReplayOptions {
  /// Print only the header line, divergences and the summary, not every step.
  var quiet = false
}

/// What a replay found.
struct ReplayOutcome {
  /// Steps replayed (before the error, if any).
  let steps: Int
  /// The first divergence, described.
  let divergence: String?
  /// Why replay stopped early.
  let error: ActionLogError?
}

import Features
import Foundation
import Unidirectional
import UnidirectionalActionLog

/// `demo replay FILE`: replays an action log (recorded with `demo counter --record FILE`) through its feature's reducer
/// without running effects, printing every step as its action and the state diff it made; or stops at a step to
/// show or export the state there, or steps through the log interactively. Everything printed from the log goes
/// through ``TerminalText``: control characters escaped, long text shortened with its length.
struct ReplayCommand: DemoCommand {
  static let name = "replay"
  static let summary = "replay an action log (from --record) through its feature's reducer, printing each step"
  static let synopsis =
    "demo replay FILE [--verify] [--quiet] [--until N | --export-state N OUT | --step | --emit-test OUT] "
    + "[--changed-counter]"
  static let usage = """
    FILE                   the action log to replay (its header names the feature)
    --verify               exit 1 if a replayed state differs from the recorded one
    --quiet                print only divergences, errors and the summary
    --until N              stop after step N and print the full state there (0: the initial state)
    --export-state N OUT   stop after step N and write the state there to OUT as JSON (to start a store from)
    --step                 step through the log: Enter for the next step, a number to jump there, s, q
    --emit-test OUT        write a Swift Testing test of the log to OUT: a TestStore sends and receives every action,
                           asserts every step's state, advances a test clock as the log did (scan logs: ScanTests)
    --changed-counter      replay counter logs through a changed counter (ticks add 2) to see a divergence
    """

  /// The features whose logs can be replayed, by the feature name in a log's header. Register new ones here.
  static func features(changedCounter: Bool) -> [ReplayableFeature] {
    [
      ReplayableFeature(TimerCounter(interval: .zero, tickSize: changedCounter ? 2 : 1)),
      ReplayableFeature(ScanFeature(), test: EmittedTests.scan),
    ]
  }

  static func run(arguments: [String]) async -> Int32 {
    let url: URL
    let verify: Bool
    let changedCounter: Bool
    let options: ReplayOptions
    let emitTest: URL?
    do {
      (url, verify, changedCounter, options) = try parse(arguments)
      emitTest = try emitTestOutput(arguments)
    } catch {
      return usageFailure(error)
    }

    do {
      // Only a regular file that opens: a named pipe would block the reader, and the reason is said in words.
      _ = try RegularFile.read(url, upTo: 0)
    } catch {
      let message = "cannot open action log \(url.path): \(error.reason)"
      FileHandle.standardError.write(Data("demo replay: \(TerminalText.line(message))\n".utf8))
      return 1
    }
    let header: ActionLogHeader
    do {
      header = try ActionLogHeader.read(from: url)
    } catch {
      fail(error.description)
      return 1
    }
    let features = features(changedCounter: changedCounter)
    guard let feature = features.first(where: { $0.name == header.feature }) else {
      let known = features.map(\.name).joined(separator: ", ")
      FileHandle.standardError.write(
        Data("demo replay: no replayer for feature \(TerminalText.quoted(header.feature)) (known: \(known))\n".utf8))
      return 1
    }

    if let output = emitTest {
      switch feature.emitTest(url) {
      case let .success(source):
        do {
          try source.write(to: output, atomically: true, encoding: .utf8)
        } catch {
          fail("cannot write the test to \(output.path): \(FileErrorReason.words(for: error))")
          return 1
        }
        print("wrote a test of \(TerminalText.line(url.lastPathComponent)) to \(TerminalText.line(output.path))")
        return 0
      case let .failure(error):
        fail("cannot write a test of the log: \(error)")
        return 1
      }
    }

    let outcome = feature.replay(url, options)
    if let error = outcome.error {
      print("stopped after \(outcome.steps) step\(outcome.steps == 1 ? "" : "s")")
      fail(error)
      return 1
    }
    let diverged = outcome.divergence != nil
    if let step = outcome.stoppedAt {
      let verdict = diverged ? "the replayed states diverge from the recording (see ✗ above)" : "no divergence so far"
      print("stopped at step \(step) as asked; \(verdict)")
    } else if options.interactive {
      print("done: \(outcome.steps) steps replayed\(diverged ? "; the replayed states diverge (see ✗ above)" : "")")
    } else if diverged {
      print("done: \(outcome.steps) steps replayed; the replayed states diverge from the recording (see ✗ above)")
    } else {
      let verdict =
        header.fingerprintAlgorithm == nil
        ? "the log has no fingerprints to verify" : "every state matches the recording"
      print("done: \(outcome.steps) steps replayed; \(verdict)")
    }
    return verify && diverged ? 1 : 0
  }

  /// The log, `--verify`, `--changed-counter` and how to replay, from `arguments`.
  static func parse(_ arguments: [String]) throws(UsageError) -> (URL, Bool, Bool, ReplayOptions) {
    var arguments = arguments
    var options = ReplayOptions()
    // `--export-state N OUT` takes two values.
    if let index = arguments.firstIndex(of: "--export-state") {
      guard index + 2 < arguments.count else { throw UsageError("--export-state needs a step and a file: N OUT") }
      guard let step = Int(arguments[index + 1]), step >= 0 else {
        throw UsageError("--export-state: the step must be a whole number from 0, not \(arguments[index + 1])")
      }
      guard !arguments[index + 2].isEmpty else { throw UsageError("--export-state: the file can't be empty") }
      options.export = (step, URL(fileURLWithPath: arguments[index + 2]))
      arguments.removeSubrange(index...(index + 2))
    }
    let parsed = try OptionParser(
      arguments, valueOptions: ["--until", "--emit-test"],
      flagOptions: ["--verify", "--quiet", "--step", "--changed-counter"])
    guard parsed.positional.count == 1 else {
      throw UsageError(parsed.positional.isEmpty ? "FILE is required" : "unexpected argument \(parsed.positional[1])")
    }
    if let text = parsed.values["--until"] {
      guard let step = Int(text), step >= 0 else { throw UsageError("--until must be a whole number from 0") }
      options.until = step
    }
    options.quiet = parsed.flags.contains("--quiet")
    options.interactive = parsed.flags.contains("--step")
    let stops = [options.until != nil, options.export != nil, options.interactive, parsed.values["--emit-test"] != nil]
      .filter { $0 }.count
    guard stops <= 1 else { throw UsageError("use one of --until, --export-state, --step and --emit-test") }
    return (
      URL(fileURLWithPath: parsed.positional[0]), parsed.flags.contains("--verify"),
      parsed.flags.contains("--changed-counter"), options
    )
  }

  /// The file `--emit-test OUT` names, if given.
  static func emitTestOutput(_ arguments: [String]) throws(UsageError) -> URL? {
    var path: String?
    if let inline = arguments.first(where: { $0.hasPrefix("--emit-test=") }) {
      path = String(inline.dropFirst("--emit-test=".count))
    } else if let index = arguments.firstIndex(of: "--emit-test") {
      path = index + 1 < arguments.count ? arguments[index + 1] : nil
    } else {
      return nil
    }
    guard let path, !path.isEmpty else { throw UsageError("--emit-test can't be empty") }
    return URL(fileURLWithPath: path)
  }

  /// How long an error message may get: the log's own text inside it (a format name, a decoding error quoting a
  /// value) is shortened to this, with the number of characters left out.
  static let messageLimit = 500

  /// Prints `message` (it may quote the log) on standard error, escaped and shortened.
  private static func fail(_ message: String) {
    FileHandle.standardError.write(Data("demo replay: \(TerminalText.line(message, limit: messageLimit))\n".utf8))
  }
}

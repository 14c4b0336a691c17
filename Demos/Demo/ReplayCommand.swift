import Features
import Foundation
import Unidirectional

/// `demo replay FILE`: replays an action log (recorded with `demo counter --record FILE`) through its feature's reducer
/// without running effects, printing every step as its action and the state diff it made. Everything printed from
/// the log goes through ``TerminalText``: control characters escaped, long text shortened with its length.
struct ReplayCommand: DemoCommand {
  static let name = "replay"
  static let summary = "replay an action log (from --record) through its feature's reducer, printing each step"
  static let synopsis = "demo replay FILE [--verify] [--quiet]"
  static let usage = """
    FILE            the action log to replay (its header names the feature)
    --verify        exit 1 if a replayed state differs from the recorded one
    --quiet         print only divergences, errors and the summary
    """

  /// The features whose logs can be replayed, by the feature name in a log's header. Register new ones here.
  static var features: [ReplayableFeature] {
    [
      ReplayableFeature(TimerCounter(interval: .zero)),
      ReplayableFeature(ScanFeature()),
    ]
  }

  static func run(arguments: [String]) async -> Int32 {
    let url: URL
    let verify: Bool
    let options: ReplayOptions
    do {
      let parsed = try OptionParser(arguments, valueOptions: [], flagOptions: ["--verify", "--quiet"])
      guard parsed.positional.count == 1 else {
        throw UsageError(
          parsed.positional.isEmpty ? "FILE is required" : "unexpected argument \(parsed.positional[1])")
      }
      url = URL(fileURLWithPath: parsed.positional[0])
      verify = parsed.flags.contains("--verify")
      options = ReplayOptions(quiet: parsed.flags.contains("--quiet"))
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
      fail(error)
      return 1
    }
    guard let feature = features.first(where: { $0.name == header.feature }) else {
      let known = features.map(\.name).joined(separator: ", ")
      FileHandle.standardError.write(
        Data("demo replay: no replayer for feature \(TerminalText.quoted(header.feature)) (known: \(known))\n".utf8))
      return 1
    }

    let outcome = feature.replay(url, options)
    if let error = outcome.error {
      print("stopped after \(outcome.steps) step\(outcome.steps == 1 ? "" : "s")")
      fail(error)
      return 1
    }
    if outcome.divergence != nil {
      print("done: \(outcome.steps) steps replayed; the replayed states diverge from the recording (see ✗ above)")
      return verify ? 1 : 0
    }
    let verdict =
      header.fingerprintAlgorithm == nil ? "the log has no fingerprints to verify" : "every state matches the recording"
    print("done: \(outcome.steps) steps replayed; \(verdict)")
    return 0
  }

  /// How long an error message may get: the log's own text inside it (a format name, a decoding error quoting a
  /// value) is shortened to this, with the number of characters left out.
  static let messageLimit = 500

  /// Prints `error` (it may quote the log) on standard error, escaped and shortened.
  private static func fail(_ error: ActionLogError) {
    let message = TerminalText.line(error.description, limit: messageLimit)
    FileHandle.standardError.write(Data("demo replay: \(message)\n".utf8))
  }
}

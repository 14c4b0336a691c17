import Foundation
import UnidirectionalActionLog
import UnidirectionalInspector

/// `demo inspect FILE`: serves an action log to the browser on 127.0.0.1 — the steps as a filterable list, the
/// state at any step as a tree, the diff each step made — until Ctrl-C. With `--changed-counter` the log is
/// replayed through the changed counter (as `demo replay --changed-counter` does) and the page opens at the first
/// divergence, the recorded state next to the replayed one. With the run's trace (`--trace FILE`, or the file
/// beside the log named like it with `.trace.json`) the page shows the effect timeline too. A trace alone (a FILE
/// named `….trace.json`, such as the failing run an interleaving exploration saves) opens as an action log with its
/// effect timeline, its states as the trace recorded them.
struct InspectCommand: DemoCommand {
  static let name = "inspect"
  static let summary =
    "open an action log (from --record) or a trace in the browser: steps, state tree, diffs, effects (127.0.0.1)"
  static let synopsis = "demo inspect FILE [--trace TRACE] [--changed-counter] [--port N]"
  static let usage = """
    FILE                the action log to inspect (its header names the feature), or a trace (….trace.json: a
                        failing explored run, or --trace's file) opened alone
    --trace TRACE       the run's trace (from --trace): shows the effect timeline along the steps
                        (default: FILE's name with .trace.json, e.g. scan.trace.json beside scan.jsonl, if it exists)
    --changed-counter   replay counter logs through a changed counter (ticks add 2): opens at the divergence
    --port N            listen on this port of 127.0.0.1 (default: a free one)
    """

  static func run(arguments: [String]) async -> Int32 {
    let url: URL
    let changed: Bool
    let port: UInt16
    let trace: URL?
    do {
      let parsed = try OptionParser(
        arguments, valueOptions: ["--port", "--trace"], flagOptions: ["--changed-counter"])
      guard parsed.positional.count == 1 else {
        throw UsageError(parsed.positional.isEmpty ? "FILE is required" : "unexpected argument \(parsed.positional[1])")
      }
      guard let number = UInt16(parsed.values["--port"] ?? "0") else {
        throw UsageError("--port must be a port number from 0 to 65535")
      }
      (url, changed, port) = (
        URL(fileURLWithPath: parsed.positional[0]), parsed.flags.contains("--changed-counter"), number
      )
      if let path = parsed.values["--trace"] {
        guard !path.isEmpty else { throw UsageError("--trace can't be empty") }
        trace = URL(fileURLWithPath: path)
      } else {
        trace = Self.traceBeside(url)
      }
    } catch {
      return usageFailure(error)
    }
    if url.lastPathComponent.hasSuffix(".trace.json") { return await serveTrace(url, port: port) }

    let log: ReplayableFeature.InspectedLog
    let featureName: String
    do {
      let header = try ActionLogHeader.read(from: url)
      let features = ReplayCommand.features(changedCounter: changed)
      guard let feature = features.first(where: { $0.name == header.feature }) else {
        let known = features.map(\.name).joined(separator: ", ")
        fail("no replayer for feature \(TerminalText.quoted(header.feature)) (known: \(known))")
        return 1
      }
      let recorded = changed ? ReplayCommand.features(changedCounter: false).first { $0.name == feature.name } : nil
      log = try feature.inspector(url, recorded, trace)
      featureName = feature.name
    } catch {
      fail("cannot open action log \(url.path): \(error)")
      return 1
    }
    let server: InspectorServer
    do {
      server = try log.serve(port)
    } catch {
      fail("\(error)")
      return 1
    }
    if let error = log.traceError { fail("\(error) (the log opens without the effect timeline)") }
    let timeline =
      log.traceError == nil ? trace.map { ", \(log.effectCount) effects from \(TerminalText.line($0.path))" } : nil
    // Written at once (not buffered): a program reading the output waits for the URL.
    FileHandle.standardOutput.write(
      Data(
        """
        inspecting \(TerminalText.line(url.path)): feature \(featureName), \(log.stepCount) steps\(timeline ?? "")
        inspector: \(server.url.absoluteString)
        open it in a browser; Ctrl-C stops the server

        """.utf8))
    while true { try? await Task.sleep(for: .seconds(3_600)) }
  }

  /// Serves the trace at `url` alone until Ctrl-C.
  private static func serveTrace(_ url: URL, port: UInt16) async -> Int32 {
    let server: InspectorServer
    let model: InspectorTraceModel
    do {
      model = try InspectorTraceModel(contentsOf: url)
      server = try InspectorServer(model: model, port: port)
    } catch {
      fail("\(error)")
      return 1
    }
    let states = model.hasStates ? " with their states" : ""
    FileHandle.standardOutput.write(
      Data(
        """
        inspecting the trace \(TerminalText.line(url.path)): \(model.stepCount) steps\(states), \
        \(model.effectCount) effects
        inspector: \(server.url.absoluteString)
        open it in a browser; Ctrl-C stops the server

        """.utf8))
    while true { try? await Task.sleep(for: .seconds(3_600)) }
  }

  /// The trace recorded beside `log` by the naming convention (`scan.jsonl` → `scan.trace.json`), if there is one.
  static func traceBeside(_ log: URL) -> URL? {
    let trace = log.deletingPathExtension().appendingPathExtension("trace.json")
    return trace != log && FileManager.default.fileExists(atPath: trace.path) ? trace : nil
  }

  /// Prints `message` (it may quote the log) on standard error, escaped and shortened.
  private static func fail(_ message: String) {
    FileHandle.standardError.write(
      Data("demo inspect: \(TerminalText.line(message, limit: ReplayCommand.messageLimit))\n".utf8))
  }
}

import Foundation
import Unidirectional
import UnidirectionalInspector

/// The demo host's `--print-changes`, `--trace FILE` and `--inspect` options: what a command installs on its store to
/// be seen while it runs.
///
/// ```swift
/// let instruments = try HostInstruments(options, command: "counter")
/// defer { instruments.finish() }
/// let store = Store(initialState: …, instruments: instruments.instruments(for: TimerCounter.self)) {
///   TimerCounter(…).printChanges(to: instruments.printer)
/// }
/// ```
struct HostInstruments {
  /// The options every store-running command accepts.
  static let valueOptions: Set<String> = ["--trace"]
  static let flagOptions: Set<String> = ["--print-changes", "--inspect"]

  /// The options' usage lines, their descriptions starting at `column`.
  static func usage(column: Int) -> String {
    [
      ("--print-changes", "print every action and what it changed in the state (secrets redacted)"),
      (
        "--trace FILE",
        "write a timeline of the run (Chrome Trace Event JSON: ui.perfetto.dev, or `demo inspect LOG --trace`)"
      ),
      ("--inspect", "follow the run in the browser: prints an http://127.0.0.1 inspector URL (actions, diffs, state)"),
    ].map { $0.0.padding(toLength: max(column, $0.0.count + 1), withPad: " ", startingAt: 0) + $0.1 }
      .joined(separator: "\n")
  }

  /// Where `--print-changes` prints (standard output), or `nil` without it.
  let printer: ChangePrinter?
  /// The `--trace` file's tracer.
  let tracer: StoreTracer?
  /// `--inspect`: the live inspector and its server.
  let inspector: (live: InspectorLive, server: InspectorServer)?
  private let command: String

  /// Reads the options from parsed arguments; throws when the trace file cannot be created or the inspector
  /// cannot listen.
  init(_ options: OptionParser, command: String) throws {
    try self.init(
      printChanges: options.flags.contains("--print-changes"), tracePath: options.values["--trace"],
      inspect: options.flags.contains("--inspect"), command: command)
  }

  /// Prints changes if asked, traces to `tracePath` if given, and serves the live inspector if asked (printing its
  /// URL); throws when the trace file cannot be created or the inspector cannot listen.
  init(printChanges: Bool, tracePath: String?, inspect: Bool = false, command: String) throws {
    self.command = command
    printer = printChanges ? .standardOutput : nil
    tracer = try tracePath.map { path throws(StoreTraceError) in try StoreTracer(fileURL: URL(fileURLWithPath: path)) }
    if inspect {
      let live = InspectorLive(feature: command)
      let server = try InspectorServer(model: live)
      inspector = (live, server)
      // Flushed at once: a program reading the output (a test, a script opening the page) waits for this line.
      FileHandle.standardOutput.write(Data("inspector: \(server.url.absoluteString)\n".utf8))
    } else {
      inspector = nil
    }
  }

  /// The instruments for a store of `reducer`'s type: the tracer's, if tracing, and the inspector's, if inspecting.
  func instruments<R: Reducer>(for reducer: R.Type) -> [any StoreInstrument<R.State, R.Action>]
  where R.State: Sendable {
    var instruments: [any StoreInstrument<R.State, R.Action>] = []
    if let tracer { instruments.append(tracer.instrument(for: reducer)) }
    if let inspector { instruments.append(inspector.live.instrument(for: reducer)) }
    return instruments
  }

  /// Prints what is still queued and writes the trace file; says where it went, or why it could not. The inspector
  /// tells its pages the run ended; on a terminal it keeps serving until Enter.
  func finish() {
    printer?.flush()
    if let inspector {
      inspector.live.endRun(waitingForPagesUpTo: .seconds(2))
      if isatty(STDIN_FILENO) != 0 {
        print(
          "inspector: the run ended; the page stays at \(inspector.server.url.absoluteString) until you press Enter")
        _ = readLine()
      }
      inspector.server.stop()
    }
    guard let tracer else { return }
    do {
      try tracer.close()
      print("trace written to \(tracer.fileURL.path) (open it in ui.perfetto.dev or chrome://tracing)")
    } catch {
      FileHandle.standardError.write(Data("demo \(command): \(error)\n".utf8))
    }
  }
}

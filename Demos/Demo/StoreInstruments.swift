import Foundation
import Unidirectional

/// The demo host's `--print-changes` and `--trace FILE` options: what a command installs on its store to be seen
/// while it runs.
///
/// ```swift
/// let instruments = try StoreInstruments(options, command: "counter")
/// defer { instruments.finish() }
/// let store = Store(initialState: …, observers: instruments.observers(for: TimerCounter.self)) {
///   TimerCounter(…).printChanges(to: instruments.printer)
/// }
/// ```
struct StoreInstruments {
  /// The options every store-running command accepts.
  static let valueOptions: Set<String> = ["--trace"]
  static let flagOptions: Set<String> = ["--print-changes"]

  /// The options' usage lines, their descriptions starting at `column`.
  static func usage(column: Int) -> String {
    [
      ("--print-changes", "print every action and what it changed in the state (secrets redacted)"),
      ("--trace FILE", "write a timeline of the run (Chrome Trace Event JSON: open it in ui.perfetto.dev)"),
    ].map { $0.0.padding(toLength: max(column, $0.0.count + 1), withPad: " ", startingAt: 0) + $0.1 }
      .joined(separator: "\n")
  }

  /// Where `--print-changes` prints (standard output), or `nil` without it.
  let printer: ChangePrinter?
  /// The `--trace` file's tracer.
  let tracer: StoreTracer?
  private let command: String

  /// Reads the options from parsed arguments; throws when the trace file cannot be created.
  init(_ options: OptionParser, command: String) throws(StoreTraceError) {
    try self.init(
      printChanges: options.flags.contains("--print-changes"), tracePath: options.values["--trace"], command: command)
  }

  /// Prints changes if asked, and traces to `tracePath` if given; throws when the trace file cannot be created.
  init(printChanges: Bool, tracePath: String?, command: String) throws(StoreTraceError) {
    self.command = command
    printer = printChanges ? .standardOutput : nil
    tracer = try tracePath.map { path throws(StoreTraceError) in try StoreTracer(fileURL: URL(fileURLWithPath: path)) }
  }

  /// The observers for a store of `reducer`'s type: the tracer's, if tracing.
  func observers<R: Reducer>(for reducer: R.Type) -> [any StoreObserver<R.State, R.Action>] {
    tracer.map { [$0.observer(for: reducer)] } ?? []
  }

  /// Prints what is still queued and writes the trace file; says where it went, or why it could not.
  func finish() {
    printer?.flush()
    guard let tracer else { return }
    do {
      try tracer.close()
      print("trace written to \(tracer.fileURL.path) (open it in ui.perfetto.dev or chrome://tracing)")
    } catch {
      FileHandle.standardError.write(Data("demo \(command): \(error)\n".utf8))
    }
  }
}

import Features
import Foundation
import Unidirectional
import UnidirectionalActionLog

/// `demo scan` (the default command): the whole scan → model → upload flow of ``ScanFeature``, headless.
///
/// With no options every part is simulated with preview dependencies (a scripted capture session drawing its
/// shots, the model simulator writing a real USDZ file, a simulated upload), with a few seconds of simulated
/// latency on the real clock. The host plays the user: it taps *Create 3D model* when the capture completes and
/// *Upload* on the preview. Ctrl-C cancels every effect and exits 130.
struct ScanCommand: DemoCommand {
  static let name = "scan"
  static let summary = "capture → 3D model → upload, printing each state change (simulated parts unless told)"
  static let usage = """
    --api URL         upload the model to this backend (multipart POST URL/upload-model) instead of simulating
    --token TOKEN     the backend's bearer token (or set UNIDIRECTIONAL_API_TOKEN); never printed
    --shots DIR       use the images in DIR (name order) as the shots instead of drawn ones
    --script FILE     play this capture script (lines of "DELAY EVENT", e.g. "200ms ready", "100ms shot")
    --out DIR         where the shots and the model go (default: a new folder in the temporary directory)
    --record FILE     write an action log of the run, with states (replay it with `demo replay FILE`)
    """ + "\n" + StoreInstruments.usage(column: 18)

  /// The environment variable the token can come from instead of `--token`.
  static let tokenVariable = "UNIDIRECTIONAL_API_TOKEN"

  /// The options after parsing and validation.
  struct Options {
    var upload: UploadServerConfiguration?
    var shotFolder: URL?
    var script = CaptureSessionScript.standard()
    var scriptName = "standard script"
    var out: URL?
    var recordURL: URL?
    var printChanges = false
    var tracePath: String?
  }

  /// How the flow ended.
  enum Outcome {
    case uploaded
    case failed
    case interrupted
  }

  static func run(arguments: [String]) async -> Int32 {
    let options: Options
    do {
      options = try parse(arguments, environment: ProcessInfo.processInfo.environment)
    } catch {
      FileHandle.standardError.write(Data("demo scan: \(error)\n\n\(usageText)\n".utf8))
      return 2
    }

    let console = Console()
    let folder =
      options.out
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "unidirectional-scan-\(UUID().uuidString.lowercased())", isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      FileHandle.standardError.write(Data("demo scan: cannot create the folder \(folder.path)\n".utf8))
      return 1
    }

    let shots: CaptureShotSource = options.shotFolder.map { .folder($0) } ?? .rendered
    let prepareDependencies: (inout DependencyValues) -> Void = {
      $0.context = .preview
      $0.captureSession = .simulator(script: options.script, shots: shots)
      if let upload = options.upload { $0.imageUploadClient = .multipart(upload) }
    }
    let initialState = ScanFeature.State(workingDirectory: folder)
    let store: Store<ScanFeature.State, ScanFeature.Action>
    var recorder: ActionRecorder?
    if let recordURL = options.recordURL {
      do {
        recorder = try ActionRecorder(fileURL: recordURL, feature: "ScanFeature", states: true)
      } catch {
        FileHandle.standardError.write(Data("demo scan: cannot record to \(recordURL.path): \(error)\n".utf8))
        return 1
      }
    }
    let instruments: StoreInstruments
    do {
      instruments = try StoreInstruments(printChanges: options.printChanges, tracePath: options.tracePath, command: name)
    } catch {
      FileHandle.standardError.write(Data("demo scan: \(error)\n".utf8))
      return 1
    }
    defer { instruments.finish() }
    let observers = instruments.observers(for: ScanFeature.self)
    if let recorder {
      store = Store(
        initialState: initialState, recordingTo: recorder, observers: observers,
        reducer: { ScanFeature().printChanges(to: instruments.printer) }, withDependencies: prepareDependencies)
    } else {
      store = Store(
        initialState: initialState, observers: observers,
        reducer: { ScanFeature().printChanges(to: instruments.printer) }, withDependencies: prepareDependencies)
    }
    console.line("scan: working in \(folder.path)")
    let shotText = options.shotFolder.map { "shots from \($0.path)" } ?? "drawn shots"
    let uploadText =
      options.upload.map { "upload to \($0.apiBaseURL.absoluteString)/upload-model" } ?? "simulated upload"
    console.line("scan: capture simulator (\(options.scriptName), \(shotText)), model simulator, \(uploadText)")

    let interrupted = InterruptFlag()
    let flow = Task { await drive(store, console: console) }
    let interrupt = InterruptHandler {
      let running = store.runningEffects.filter { !$0.isCancelled }.count
      guard interrupted.set(runningEffects: running) else { return }
      store.send(.onDisappear)  // cancels the capture subscription, the reconstruction, the upload, the clear timer
      flow.cancel()
    }
    defer { interrupt.cancel() }
    let outcome = await flow.value

    if let running = interrupted.runningEffects {
      let left = await waitForEffectsToEnd(store)
      let cancelled = "cancelled \(running) running effect\(running == 1 ? "" : "s")"
      console.line(
        left == 0
          ? "interrupted: \(cancelled); no effect is left running"
          : "interrupted: \(cancelled); \(left) still winding down")
      _ = await close(recorder, console: console)
      return 130
    }
    store.send(.onDisappear)  // the host leaves the screen: the pending status clear is cancelled too
    _ = await waitForEffectsToEnd(store)
    switch outcome {
    case .uploaded:
      console.line("done: model uploaded; every effect finished or cancelled")
    case .failed:
      console.line("done: the scan did not finish (see above)")
    case .interrupted:
      break
    }
    guard await close(recorder, console: console) else { return 1 }
    switch outcome {
    case .uploaded: return 0
    case .failed: return 1
    case .interrupted: return 130
    }
  }

  /// Writes the rest of the action log and closes it; false (with a message) if that failed.
  static func close(_ recorder: ActionRecorder?, console: Console) async -> Bool {
    guard let recorder else { return true }
    do {
      try await recorder.close()
    } catch {
      FileHandle.standardError.write(Data("demo scan: the action log is incomplete: \(error)\n".utf8))
      return false
    }
    console.line(
      "recorded \(recorder.writtenCount) actions to \(recorder.fileURL.path) (replay: demo replay \(recorder.fileURL.path))"
    )
    return true
  }

  /// Plays the user: starts the capture, taps *Create 3D model* and *Upload* when they are offered, and returns
  /// when the upload has succeeded or something failed (or the task is cancelled).
  static func drive(_ store: Store<ScanFeature.State, ScanFeature.Action>, console: Console) async -> Outcome {
    var printer = ScanPrinter(console: console)
    var tappedCreateModel = false
    var tappedUpload = false
    let states = store.states
    store.send(.capture(.start))
    for await state in states {
      printer.print(state)
      switch state.screen {
      case .capture(.completed):
        guard !tappedCreateModel else { break }
        tappedCreateModel = true
        console.line("→ \(CaptureSessionFeature.createModelTitle)")
        store.send(.capture(.createModelTapped))
      case .capture(.failed), .capture(.closed), .reconstructionFailed, .closed:
        return .failed
      case .capture(.capture), .reconstructing:
        break
      case let .preview(_, upload, _):
        switch upload {
        case .idle:
          guard !tappedUpload else { break }
          tappedUpload = true
          console.line("→ Upload")
          store.send(.uploadTapped)
        case .uploading:
          break
        case .success:
          return .uploaded
        case .failure:
          return .failed
        }
      }
    }
    return .interrupted
  }

  /// Waits (at most 5 s) until the store runs no effect; returns how many still run.
  static func waitForEffectsToEnd(_ store: Store<ScanFeature.State, ScanFeature.Action>) async -> Int {
    let deadline = ContinuousClock.now.advanced(by: .seconds(5))
    while !store.runningEffects.isEmpty, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    return store.runningEffects.count
  }

  static var usageText: String {
    "usage: demo [scan] [OPTIONS]\n" + usage.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
  }

  /// Parses and validates `arguments`; the token may come from `environment`.
  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Options {
    let parser = try OptionParser(
      arguments,
      valueOptions: StoreInstruments.valueOptions.union(["--api", "--token", "--shots", "--script", "--out", "--record"]),
      flagOptions: StoreInstruments.flagOptions)
    guard parser.positional.isEmpty else { throw UsageError("unexpected argument \(parser.positional[0])") }
    let values = parser.values
    var options = Options()

    let token = values["--token"] ?? environment[tokenVariable]
    if let api = values["--api"] {
      guard let url = URL(string: api), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
        url.host != nil
      else {
        throw UsageError("--api must be an http or https URL, not \(api)")
      }
      guard let token, !token.isEmpty else {
        throw UsageError("--api needs a token: pass --token or set \(tokenVariable)")
      }
      options.upload = UploadServerConfiguration(apiBaseURL: url, token: BearerToken(token))
    } else if values["--token"] != nil {
      throw UsageError("--token needs --api")
    }

    if let path = values["--script"] {
      do {
        options.script = try CaptureSessionScript(contentsOf: URL(fileURLWithPath: path))
      } catch {
        throw UsageError("--script: \(error)")
      }
      options.scriptName = "script \(URL(fileURLWithPath: path).lastPathComponent)"
    }
    if let path = values["--shots"] {
      let folder = URL(fileURLWithPath: path, isDirectory: true)
      let images: [URL]
      do {
        images = try CaptureShotSource.images(in: folder)
      } catch {
        throw UsageError("--shots: \(error)")
      }
      if values["--script"] == nil {
        options.script = .standard(shotCount: images.count)
      } else if options.script.shotCount > images.count {
        throw UsageError(
          "--shots: the script takes \(options.script.shotCount) shots but \(path) has \(images.count) images")
      }
      options.shotFolder = folder
    }
    if let out = values["--out"] {
      guard !out.isEmpty else { throw UsageError("--out can't be empty") }
      options.out = URL(fileURLWithPath: out, isDirectory: true)
    }
    if let record = values["--record"] {
      guard !record.isEmpty else { throw UsageError("--record can't be empty") }
      options.recordURL = URL(fileURLWithPath: record)
    }
    if let trace = values["--trace"] {
      guard !trace.isEmpty else { throw UsageError("--trace can't be empty") }
      options.tracePath = trace
    }
    options.printChanges = parser.flags.contains("--print-changes")
    return options
  }
}

/// Set once by the Ctrl-C handler with the number of effects it found running; read after the flow ends.
private final class InterruptFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var count: Int?

  /// Records the interrupt; returns false if it was already recorded (a second Ctrl-C).
  func set(runningEffects: Int) -> Bool {
    lock.withLock {
      guard count == nil else { return false }
      count = runningEffects
      return true
    }
  }

  /// The effects running when Ctrl-C came, or nil without one.
  var runningEffects: Int? { lock.withLock { count } }
}

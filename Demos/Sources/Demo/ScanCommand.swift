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
  static let synopsis = "demo [scan] [OPTIONS]"
  static let usage = """
    --api URL         upload the model to this backend (multipart POST URL/upload-model) instead of simulating
    --token TOKEN     the backend's bearer token; never printed. Without it: UNIDIRECTIONAL_API_TOKEN, then
                      UPLOAD_API_TOKEN (environment), then the same names in ./.unidirectional.local.json, then
                      in ~/.config/unidirectional/keys.json
    --timeout SECONDS with --api: how long the server may stay silent before the upload fails (default 60)
    --shots DIR       use the images in DIR (name order) as the shots instead of drawn ones
    --script FILE     play this capture script (lines of "DELAY EVENT", e.g. "200ms ready", "100ms shot")
    --out DIR         keep the shots and the model in DIR (default: a temporary folder, removed at exit)
    """ + "\n" + RecordDestination.usage + "\n" + HostInstruments.usage(column: 18)

  /// The names the bearer token is looked up under after `--token`, in order (``SecretSources``).
  static let tokenVariables = UploadServerConfiguration.tokenVariables

  /// The options after parsing and validation.
  struct Options {
    var upload: UploadServerConfiguration?
    var shotFolder: URL?
    var script = CaptureSessionScript.standard()
    var scriptName = "standard script"
    var out: URL?
    var record: RecordDestination?
    var printChanges = false
    var tracePath: String?
    var inspect = false
    /// What must never be printed (the token), whatever a server echoes.
    var secrets: [String] = []
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
      options = try parse(arguments, secrets: SecretSources())
    } catch {
      return usageFailure(error)
    }

    let console = Console(redacting: options.secrets)
    let folder =
      options.out
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "unidirectional-scan-\(UUID().uuidString.lowercased())", isDirectory: true)
    do {
      try FolderAccess.create(folder)
    } catch {
      FileHandle.standardError.write(Data("demo scan: \(error)\n".utf8))
      return 1
    }
    // Files the user did not ask for do not outlive the run, however it ends (Ctrl-C included: it ends here too).
    defer { if options.out == nil { removeWorkingFolder(folder) } }

    let shots: CaptureShotSource = options.shotFolder.map { .folder($0) } ?? .rendered
    let prepareDependencies: (inout DependencyValues) -> Void = {
      $0.context = .preview
      $0.captureSession = .simulator(script: options.script, shots: shots)
      if let upload = options.upload { $0.imageUploadClient = .multipart(upload) }
    }
    let initialState = ScanFeature.State(workingDirectory: folder)
    let store: Store<ScanFeature.State, ScanFeature.Action>
    var recorder: ActionRecorder?
    if let record = options.record {
      do {
        recorder = try record.makeRecorder(feature: "ScanFeature")
      } catch {
        FileHandle.standardError.write(Data("demo scan: cannot record to \(record.url.path): \(error)\n".utf8))
        return 1
      }
    }
    let instruments: HostInstruments
    do {
      instruments = try HostInstruments(
        printChanges: options.printChanges, tracePath: options.tracePath, inspect: options.inspect, command: name)
    } catch {
      FileHandle.standardError.write(Data("demo scan: \(error)\n".utf8))
      return 1
    }
    defer { instruments.finish() }
    let storeInstruments = instruments.instruments(for: ScanFeature.self)
    if let recorder {
      store = Store(
        initialState: initialState, recordingTo: recorder, instruments: storeInstruments,
        reducer: { ScanFeature().printChanges(to: instruments.printer) }, withDependencies: prepareDependencies)
    } else {
      store = Store(
        initialState: initialState, instruments: storeInstruments,
        reducer: { ScanFeature().printChanges(to: instruments.printer) }, withDependencies: prepareDependencies)
    }
    console.line(
      "scan: working in \(folder.path)"
        + (options.out == nil ? " (a temporary folder, removed at exit; --out DIR keeps the files)" : ""))
    let shotText = options.shotFolder.map { "shots from \($0.path)" } ?? "drawn shots"
    let uploadText =
      options.upload.map { "upload to \($0.apiBaseURL.absoluteString)/upload-model" } ?? "simulated upload"
    console.line("scan: capture simulator (\(options.scriptName), \(shotText)), model simulator, \(uploadText)")

    let interrupted = InterruptFlag()
    let waitingFor = options.upload.map { upload in
      "\(upload.apiBaseURL.host ?? upload.apiBaseURL.absoluteString)"
        + (upload.apiBaseURL.port.map { ":\($0)" } ?? "")
        + " to answer (the upload fails after \(ProgressBar.seconds(upload.requestTimeout)) of silence)"
    }
    let flow = Task { await drive(store, console: console, waitingFor: waitingFor) }
    let interrupt = InterruptHandler {
      let running = store.runningEffectCount
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
  static func drive(
    _ store: Store<ScanFeature.State, ScanFeature.Action>, console: Console, waitingFor: String?
  ) async -> Outcome {
    var printer = ScanPrinter(console: console, waitingFor: waitingFor)
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
    while store.runningEffectCount > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    return store.runningEffectCount
  }

  /// Removes the temporary working folder (a failure to do so is reported, not fatal).
  static func removeWorkingFolder(_ folder: URL) {
    do {
      try FileManager.default.removeItem(at: folder)
    } catch {
      FileHandle.standardError.write(
        Data("demo scan: could not remove \(folder.path): \(FileErrorReason.words(for: error))\n".utf8))
    }
  }

  /// Parses and validates `arguments`; the token may come from `secrets` (in their one order).
  static func parse(_ arguments: [String], secrets: SecretSources) throws(UsageError) -> Options {
    let parser = try OptionParser(
      arguments,
      valueOptions: HostInstruments.valueOptions.union([
        "--api", "--token", "--timeout", "--shots", "--script", "--out", "--record",
      ]),
      flagOptions: HostInstruments.flagOptions.union([RecordDestination.forceFlag]))
    guard parser.positional.isEmpty else { throw UsageError("unexpected argument \(parser.positional[0])") }
    let values = parser.values
    var options = Options()

    if let api = values["--api"] {
      guard let url = URL(string: api), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
        url.host != nil
      else {
        throw UsageError("--api must be an http or https URL, not \(api)")
      }
      let token: SecretSources.Found?
      do {
        token = try secrets.value(for: tokenVariables, explicit: (values["--token"], "--token"))
      } catch {
        throw UsageError("--api: cannot read the token: \(error)")
      }
      guard let token else {
        let places = secrets.places(for: tokenVariables, explicitOption: "--token")
        throw UsageError("--api needs a token: \(places.joined(separator: ", or "))")
      }
      var upload = UploadServerConfiguration(apiBaseURL: url, token: BearerToken(token.value))
      options.secrets = [token.value]
      if let seconds = try parser.seconds("--timeout") { upload.requestTimeout = seconds }
      options.upload = upload
    } else {
      for option in ["--token", "--timeout"] where values[option] != nil {
        throw UsageError("\(option) needs --api")
      }
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
    options.record = try RecordDestination(parser)
    if let trace = values["--trace"] {
      guard !trace.isEmpty else { throw UsageError("--trace can't be empty") }
      options.tracePath = trace
    }
    options.printChanges = parser.flags.contains("--print-changes")
    options.inspect = parser.flags.contains("--inspect")
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

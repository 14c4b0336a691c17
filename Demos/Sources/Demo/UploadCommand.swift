import Features
import Foundation
import Unidirectional

/// `demo upload FILE --api URL [--resumable]`: one file to the backend through ``TransferFeature``, with a
/// progress bar that shows every resumption.
///
/// With `--resumable` the upload speaks the IETF resumable-uploads draft with `API/resumable-uploads` (interop 8,
/// falling back to 6); a dropped connection continues from the server's offset. Without it, the file goes in one
/// plain request to the same endpoint. Ctrl-C pauses: the server keeps what it has, and the command prints the
/// upload resource (never the token) before it exits 130.
struct UploadCommand: DemoCommand {
  static let name = "upload"
  static let summary = "upload FILE to the backend (resumable with --resumable), with a progress bar"
  static let synopsis = "demo upload FILE --api URL [OPTIONS]"
  static let usage = """
    FILE              the file to upload
    --api URL         the backend (required); the upload goes to URL/resumable-uploads
    --token TOKEN     the backend's bearer token; never printed. Without it: UNIDIRECTIONAL_API_TOKEN, then
                      UPLOAD_API_TOKEN (environment), then the same names in ./.unidirectional.local.json, then
                      in ~/.config/unidirectional/keys.json
    --resumable       speak the resumable-uploads draft: interruptions continue where the server's bytes end
    --drop-after N,…  test hook of a backend run with --test-hooks: it drops the connection at these offsets
    """

  struct Options {
    var file: URL
    var configuration: ResumableUploadConfiguration
    var resumable: Bool
  }

  static func run(arguments: [String]) async -> Int32 {
    let options: Options
    do {
      options = try parse(arguments, secrets: SecretSources())
    } catch {
      return usageFailure(error)
    }
    let size: Int64
    do {
      let attributes = try FileManager.default.attributesOfItem(atPath: options.file.path)
      guard (attributes[.type] as? FileAttributeType) == .typeRegular, let bytes = attributes[.size] as? NSNumber
      else { throw UsageError("not a regular file") }
      size = bytes.int64Value
    } catch {
      FileHandle.standardError.write(Data("demo upload: cannot read \(options.file.path)\n".utf8))
      return 1
    }

    let console = Console()
    let file = ResumableUploadFile(
      url: options.file, contentType: "application/octet-stream", filename: options.file.lastPathComponent)
    let store = Store(initialState: TransferFeature.State(file: file, fileSize: size)) {
      TransferFeature()
    } withDependencies: {
      $0.transferClient = .resumable(options.configuration)
    }
    let mode = options.resumable ? "resumable (IETF draft)" : "one plain request"
    console.line(
      "upload: \(options.file.lastPathComponent), \(ProgressBar.bytes(size)), to "
        + "\(options.configuration.endpoint.absoluteString), \(mode)")

    let interrupted = LockIsolated(false)
    let flow = Task { await drive(store, console: console) }
    let interrupt = InterruptHandler {
      interrupted.setValue(true)
      store.send(.pauseTapped)
      flow.cancel()
    }
    defer { interrupt.cancel() }
    let succeeded = await flow.value
    if interrupted.value {
      if let resource = store.state.resource {
        console.line("paused: the server keeps the upload at \(resource) (\(store.state.progress))")
      } else {
        console.line("interrupted")
      }
      return 130
    }
    return succeeded ? 0 : 1
  }

  /// Starts the transfer and prints its states until it completes or fails; true when it completed.
  static func drive(_ store: Store<TransferFeature.State, TransferFeature.Action>, console: Console) async -> Bool {
    var bar = ProgressBar(label: "upload", console: console)
    let start = ContinuousClock.now
    let states = store.states
    store.send(.startTapped)
    var lastStatus: TransferFeature.Status?
    var announced = false
    for await state in states {
      defer { lastStatus = state.status }
      if !announced, let resource = state.resource {
        announced = true
        console.line("upload: the server created the upload resource (\(resource))")
      }
      let resumed = state.resumptions == 0 ? "" : "  resumed \(state.resumptions)×"
      switch state.status {
      case .idle:
        break
      case let .uploading(progress):
        let detail =
          "\(ProgressBar.bytes(progress.completedBytes)) / \(ProgressBar.bytes(progress.totalBytes))  "
          + "\(progress.percent)%  \(ProgressBar.rate(progress.completedBytes, over: ContinuousClock.now - start))"
          + resumed
        bar.update(fraction: progress.fractionCompleted, detail: detail)
      case let .resuming(offset):
        guard lastStatus != state.status else { break }
        console.line("upload: interrupted; the server has \(ProgressBar.bytes(offset)), sending the rest")
        bar.resumed()
      case let .waitingToResume(_, reason):
        guard lastStatus != state.status else { break }
        console.line("upload: \(reason) Resuming in \(TransferFeature.autoResumeDelay)…")
      case .paused:
        bar.abandon()
        return false
      case let .completed(receipt):
        bar.finish(
          detail: "\(ProgressBar.bytes(receipt.size)) / \(ProgressBar.bytes(receipt.size))  100%" + resumed)
        let mode: String
        switch receipt.mode {
        case let .resumable(version): mode = "resumable, interop version \(version)"
        case .plain: mode = "one plain request"
        }
        console.line(
          "done: \(receipt.fileID.map { "file id \($0)" } ?? "stored") (HTTP \(receipt.status), \(mode)); "
            + "sent \(ProgressBar.bytes(receipt.bytesSent)) in this run, \(state.resumptions) resumption"
            + (state.resumptions == 1 ? "" : "s"))
        if let sha256 = receipt.sha256 { console.line("sha256 \(sha256)") }
        return true
      case let .failed(reason):
        bar.abandon()
        console.line("failed: \(reason)")
        return false
      }
    }
    return false
  }

  /// Parses and validates `arguments`; the token may come from `secrets` (in their one order).
  static func parse(_ arguments: [String], secrets: SecretSources) throws(UsageError) -> Options {
    let parser = try OptionParser(
      arguments, valueOptions: ["--api", "--token", "--drop-after"], flagOptions: ["--resumable"])
    guard parser.positional.count == 1, let path = parser.positional.first, !path.isEmpty else {
      throw UsageError(parser.positional.isEmpty ? "name the FILE to upload" : "upload takes one FILE")
    }
    guard let api = parser.values["--api"] else { throw UsageError("--api URL is required") }
    guard let url = URL(string: api), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
      url.host != nil
    else {
      throw UsageError("--api must be an http or https URL, not \(api)")
    }
    let found: SecretSources.Found?
    do {
      found = try secrets.value(for: ScanCommand.tokenVariables, explicit: (parser.values["--token"], "--token"))
    } catch {
      throw UsageError("--api: cannot read the token: \(error)")
    }
    guard let token = found?.value else {
      let places = secrets.places(for: ScanCommand.tokenVariables, explicitOption: "--token")
      throw UsageError("--api needs a token: \(places.joined(separator: ", or "))")
    }
    let resumable = parser.flags.contains("--resumable")
    var configuration = ResumableUploadConfiguration(
      endpoint: url.appendingPathComponent("resumable-uploads"), token: BearerToken(token),
      interopVersions: resumable ? [8, 6] : [])
    if let drops = parser.values["--drop-after"] {
      let points = drops.split(separator: ",").map { Int64($0) }
      guard !points.isEmpty, points.allSatisfy({ ($0 ?? 0) > 0 }) else {
        throw UsageError("--drop-after takes positive byte counts separated by commas, not \(drops)")
      }
      configuration.additionalHeaders["X-Test-Drop-After"] = drops
    }
    return Options(file: URL(fileURLWithPath: path), configuration: configuration, resumable: resumable)
  }
}

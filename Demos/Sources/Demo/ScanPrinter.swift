import Features
import Foundation

/// Prints what changed in a ``ScanFeature`` state since the last call, one readable line per change, with progress
/// bars for the model and the upload.
struct ScanPrinter {
  private let console: Console
  private var last: ScanFeature.State?
  private var modelBar: ProgressBar
  private var uploadBar: ProgressBar
  private var uploadStart: ContinuousClock.Instant?
  private let waitingFor: String?
  private var saidWaiting = false

  /// A printer writing to `console`; `waitingFor` (`127.0.0.1:8000 to answer (…)`) is said once every byte of a
  /// live upload is sent, so a silent server is not a bar stuck at 100%.
  init(console: Console, waitingFor: String? = nil) {
    self.console = console
    self.waitingFor = waitingFor
    self.modelBar = ProgressBar(label: "model", console: console)
    self.uploadBar = ProgressBar(label: "upload", console: console)
  }

  mutating func print(_ state: ScanFeature.State) {
    defer { last = state }
    printCapture(state)
    printModel(state)
    printUpload(state)
  }

  private func printCapture(_ state: ScanFeature.State) {
    let previous = last?.capture
    guard let capture = state.capture else {
      if previous != nil { console.line("capture: released (the session is gone; its screen can't be shown)") }
      return
    }
    if previous?.session != capture.session {
      switch capture.session {
      case .initializing: console.line("capture: initializing")
      case .ready: console.line("capture: ready (point the camera at the object)")
      case .detecting: console.line("capture: detecting the object")
      case .capturing: console.line("capture: capturing")
      case .finishing: console.line("capture: finishing")
      case .completed:
        console.line(
          "capture: completed with \(capture.shots.count) shot\(capture.shots.count == 1 ? "" : "s"), "
            + "offering \"\(CaptureSessionFeature.createModelTitle)\"")
      case let .failed(reason): console.line("capture: failed: \(reason)")
      }
    }
    for shot in capture.shots.dropFirst(previous?.shots.count ?? 0) {
      console.line(
        "capture: shot \(shot.number): \(shot.fileURL.lastPathComponent) (\(ProgressBar.bytes(shot.byteCount)))")
    }
    if previous?.refusal != capture.refusal, let refusal = capture.refusal {
      console.line("capture: refused an event: \(refusal)")
    }
    if previous?.isReleased == false, capture.isReleased {
      console.line("capture: released")
    }
  }

  private mutating func printModel(_ state: ScanFeature.State) {
    guard last?.model != state.model else { return }
    switch state.model {
    case .notStarted:
      break
    case let .reconstructing(progress):
      if progress.totalSteps == 0 {
        console.line("model: reconstructing from \(state.shots.count) shots")
      } else {
        modelBar.update(
          fraction: progress.fractionCompleted,
          detail: "\(progress.completedSteps)/\(progress.totalSteps) steps  \(progress.percent)%")
      }
    case let .ready(model):
      if case let .reconstructing(progress)? = last?.model, progress.totalSteps > 0 {
        modelBar.finish(detail: "\(progress.totalSteps)/\(progress.totalSteps) steps  100%")
      }
      console.line(
        "model: ready: \(model.fileName), \(ProgressBar.bytes(model.byteCount)), \(model.contentType), "
          + "\(model.entryCount) files (scene + \(model.shotCount) shots)")
      console.line("model: sha256 \(model.sha256)")
      console.line("model: saved at \(model.fileURL.path)")
    case let .failed(reason):
      modelBar.abandon()
      console.line("model: failed: \(reason)")
    }
  }

  private mutating func printUpload(_ state: ScanFeature.State) {
    let status = state.upload.status
    guard last?.upload.status != status else { return }
    switch status {
    case .idle:
      if last != nil, last?.upload.status != .idle { console.line("upload: status cleared") }
    case let .uploading(progress):
      let now = ContinuousClock.now
      if uploadStart == nil || !(last?.upload.isLoading ?? false) {
        uploadStart = now
        uploadBar = ProgressBar(label: "upload", console: console)
        saidWaiting = false
        console.line("upload: Uploading to server...")
      }
      let elapsed = uploadStart.map { $0.duration(to: now) } ?? .zero
      uploadBar.update(
        fraction: progress.totalBytes > 0 ? progress.fractionCompleted : 0,
        detail: "\(ProgressBar.bytes(progress.completedBytes)) / \(ProgressBar.bytes(progress.totalBytes))  "
          + "\(progress.percent)%  \(ProgressBar.rate(progress.completedBytes, over: elapsed))")
      if let waitingFor, !saidWaiting, progress.totalBytes > 0, progress.completedBytes >= progress.totalBytes {
        saidWaiting = true
        console.line("upload: all \(ProgressBar.bytes(progress.totalBytes)) sent; waiting for \(waitingFor)")
      }
    case let .success(ids):
      if case let .uploading(progress)? = last?.upload.status {
        let elapsed = uploadStart.map { $0.duration(to: .now) } ?? .zero
        uploadBar.finish(
          detail: "\(ProgressBar.bytes(progress.totalBytes)) / \(ProgressBar.bytes(progress.totalBytes))  100%  "
            + ProgressBar.rate(progress.totalBytes, over: elapsed))
      }
      console.line("upload: \(status.text) (id \(ids.map(\.rawValue).joined(separator: ", ")))")
    case .failure:
      uploadBar.abandon()
      console.line("upload: \(status.text)")
    }
  }
}

import CaptureSession
import FeatureTestSupport
import Foundation
import HTTPClient
import ImageUpload
import ModelReconstruction
import Scan
import Unidirectional
import UnidirectionalTesting
import XCTest

final class ScanFeatureTests: XCTestCase {
  private let shots = ScanFixtures.shots

  /// Capture → completed → create model → reconstruct (progress) → preview → upload (progress) → success → the
  /// status clears after 3 seconds. Every action and every state change asserted.
  func testTheWholeFlowFromCaptureToUploadedModel() async {
    let clock = TestClock()
    let session = FakeCaptureSession()
    let requests = Recorder<ModelReconstructionRequest>()
    let uploads = Recorder<([UploadItem], MediaType)>()
    let store = TestStore(initialState: ScanFeature.State(workingDirectory: ScanFixtures.folder)) {
      ScanFeature()
    } withDependencies: {
      $0.clock = clock
      $0.uuid = .incrementing
      $0.captureSession = session.client
      $0.modelReconstruction.reconstruct = { request, progress in
        requests.append(request)
        progress(ModelReconstructionProgress(completedSteps: 1, totalSteps: 2))
        try await clock.sleep(for: .seconds(1))
        progress(ModelReconstructionProgress(completedSteps: 2, totalSteps: 2))
        return ScanFixtures.model(for: request)
      }
      $0.imageUploadClient.upload = { items, mediaType, progress in
        uploads.append((items, mediaType))
        progress(UploadProgress(completedBytes: 2_048, totalBytes: 4_096))
        try await clock.sleep(for: .seconds(1))
        progress(UploadProgress(completedBytes: 4_096, totalBytes: 4_096))
        return ["model-file-1"]
      }
    }
    XCTAssertEqual(
      store.state.capture?.configuration.imagesDirectory.path, ScanFixtures.folder.appendingPathComponent("images").path
    )
    XCTAssertEqual(store.state.screen, .capture(.capture(phase: .initializing, shotCount: 0, warning: nil)))

    // Capture.
    await store.send(.capture(.start)) { $0.capture?.hasStarted = true }
    for state in [CaptureSessionState.ready, .detecting, .capturing] {
      session.send(.stateChanged(state))
      await store.receive(.capture(.sessionEvent(.stateChanged(state)))) { $0.capture?.session = state }
    }
    for shot in shots {
      session.send(.shotCaptured(shot))
      await store.receive(.capture(.sessionEvent(.shotCaptured(shot)))) { $0.capture?.shots.append(shot) }
    }
    for state in [CaptureSessionState.finishing, .completed] {
      session.send(.stateChanged(state))
      await store.receive(.capture(.sessionEvent(.stateChanged(state)))) { $0.capture?.session = state }
    }
    XCTAssertEqual(store.state.screen, .capture(.completed(shotCount: 2)))
    XCTAssertEqual(session.terminations, ["cancelled"])

    // Create the model: the capture is released, reconstruction starts.
    await store.send(.capture(.createModelTapped))
    await store.receive(.capture(.delegate(.createModel(shots)))) {
      $0.capture = nil
      $0.shots = self.shots
      $0.model = .reconstructing(.starting)
    }
    XCTAssertEqual(requests.values, [ModelReconstructionRequest(shots: shots, outputURL: ScanFixtures.firstModelURL)])
    await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 1, totalSteps: 2))) {
      $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 1, totalSteps: 2))
    }
    XCTAssertEqual(store.state.screen, .reconstructing(ModelReconstructionProgress(completedSteps: 1, totalSteps: 2)))
    await clock.advance(by: .seconds(1))
    await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 2, totalSteps: 2))) {
      $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 2, totalSteps: 2))
    }
    let model = ScanFixtures.model(for: ModelReconstructionRequest(shots: shots, outputURL: ScanFixtures.firstModelURL))
    await store.receive(.reconstructionSucceeded(model)) { $0.model = .ready(model) }
    XCTAssertEqual(store.state.screen, .preview(model: model, upload: .idle, uploadedID: nil))

    // Upload it, with the image upload's status feedback.
    await store.send(.uploadTapped)
    await store.receive(.upload(.uploadRequested([ScanFixtures.item(model)]))) {
      $0.upload.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 4_096))
    }
    await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 2_048, totalBytes: 4_096)))) {
      $0.upload.status = .uploading(UploadProgress(completedBytes: 2_048, totalBytes: 4_096))
    }
    XCTAssertEqual(store.state.upload.statusText, "Uploading to server... 50%")
    await store.send(.uploadTapped)  // already uploading: ignored
    await clock.advance(by: .seconds(1))
    await store.receive(.upload(.uploadProgressed(UploadProgress(completedBytes: 4_096, totalBytes: 4_096)))) {
      $0.upload.status = .uploading(UploadProgress(completedBytes: 4_096, totalBytes: 4_096))
    }
    await store.receive(.upload(.uploadCompleted(["model-file-1"]))) { $0.upload.status = .success(["model-file-1"]) }
    await store.receive(.upload(.delegate(.uploadCompleted(["model-file-1"])))) { $0.uploadedModelID = "model-file-1" }
    XCTAssertEqual(store.state.upload.statusText, "✓ Upload complete!")
    XCTAssertEqual(
      store.state.screen, .preview(model: model, upload: .success(["model-file-1"]), uploadedID: "model-file-1"))
    XCTAssertEqual(uploads.values.map(\.0), [[ScanFixtures.item(model)]])
    XCTAssertEqual(uploads.values.map(\.1), [.model])

    await clock.advance(by: .seconds(3))
    await store.receive(.upload(.statusCleared)) { $0.upload.status = .idle }
    XCTAssertEqual(store.state.upload.statusText, "")
    await store.finish()
  }

  func testAFailedReconstructionCanBeRetried() async {
    let attempts = Recorder<ModelReconstructionRequest>()
    let store = TestStore(initialState: ScanFixtures.completedCapture()) {
      ScanFeature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.modelReconstruction.reconstruct = { request, _ in
        attempts.append(request)
        if attempts.values.count == 1 {
          throw ModelReconstructionError.unreadableShot(path: "/scan/images/shot-002.png", reason: "the file is empty")
        }
        return ScanFixtures.model(for: request)
      }
    }
    await store.send(.capture(.createModelTapped))
    await store.receive(.capture(.delegate(.createModel(shots)))) {
      $0.capture = nil
      $0.shots = self.shots
      $0.model = .reconstructing(.starting)
    }
    await store.receive(
      .reconstructionFailed(.unreadableShot(path: "/scan/images/shot-002.png", reason: "the file is empty"))
    ) {
      $0.model = .failed("Cannot read the shot shot-002.png: the file is empty.")
    }
    XCTAssertEqual(
      store.state.screen, .reconstructionFailed(reason: "Cannot read the shot shot-002.png: the file is empty."))
    await store.send(.uploadTapped)  // nothing to upload

    await store.send(.retryReconstructionTapped) { $0.model = .reconstructing(.starting) }
    let model = ScanFixtures.model(
      for: ModelReconstructionRequest(shots: shots, outputURL: ScanFixtures.secondModelURL))
    await store.receive(.reconstructionSucceeded(model)) { $0.model = .ready(model) }
    XCTAssertEqual(attempts.values.map(\.outputURL), [ScanFixtures.firstModelURL, ScanFixtures.secondModelURL])
    await store.send(.retryReconstructionTapped)  // only after a failure
    await store.finish()
  }

  func testAFailedUploadShowsTheReasonClearsAndCanBeRetried() async {
    let clock = TestClock()
    let model = ScanFixtures.model(for: ModelReconstructionRequest(shots: shots, outputURL: ScanFixtures.firstModelURL))
    let attempts = Recorder<Int>()
    let failure = ImageUploadError.http(.httpStatus(413, message: "file too large"))
    let store = TestStore(
      initialState: ScanFeature.State(
        workingDirectory: ScanFixtures.folder, capture: nil, shots: shots, model: .ready(model))
    ) {
      ScanFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageUploadClient.upload = { _, _, _ in
        attempts.append(1)
        if attempts.values.count == 1 { throw failure }
        return ["model-file-2"]
      }
    }
    let uploading = ImageUploadFeature.Status.uploading(UploadProgress(completedBytes: 0, totalBytes: 4_096))
    await store.send(.uploadTapped)
    await store.receive(.upload(.uploadRequested([ScanFixtures.item(model)]))) { $0.upload.status = uploading }
    await store.receive(.upload(.uploadFailed(failure))) { $0.upload.status = .failure(failure.description) }
    await store.receive(.upload(.delegate(.uploadFailed(failure))))
    XCTAssertEqual(store.state.upload.statusText, "✗ Upload failed: The server answered HTTP 413: file too large")
    XCTAssertEqual(
      store.state.screen, .preview(model: model, upload: .failure(failure.description), uploadedID: nil))
    XCTAssertNil(store.state.uploadedModelID)

    await clock.advance(by: .milliseconds(2_999))
    XCTAssertFalse(store.state.upload.isLoading)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.upload(.statusCleared)) { $0.upload.status = .idle }

    await store.send(.uploadTapped)
    await store.receive(.upload(.uploadRequested([ScanFixtures.item(model)]))) { $0.upload.status = uploading }
    await store.receive(.upload(.uploadCompleted(["model-file-2"]))) { $0.upload.status = .success(["model-file-2"]) }
    await store.receive(.upload(.delegate(.uploadCompleted(["model-file-2"])))) { $0.uploadedModelID = "model-file-2" }
    // Leaving within the 3 seconds cancels the pending clear.
    await store.send(.onDisappear)
    await store.receive(.upload(.onDisappear))
    XCTAssertEqual(clock.sleeperCount, 0)
    await store.finish()
  }

  func testCancellingTheReconstructionStopsItAndOffersARetry() async {
    let clock = TestClock()
    let store = TestStore(initialState: ScanFixtures.completedCapture()) {
      ScanFeature()
    } withDependencies: {
      $0.clock = clock
      $0.uuid = .incrementing
      $0.modelReconstruction.reconstruct = { request, progress in
        progress(ModelReconstructionProgress(completedSteps: 1, totalSteps: 4))
        try await clock.sleep(for: .seconds(10))
        progress(ModelReconstructionProgress(completedSteps: 4, totalSteps: 4))
        return ScanFixtures.model(for: request)
      }
    }
    await store.send(.capture(.createModelTapped))
    await store.receive(.capture(.delegate(.createModel(shots)))) {
      $0.capture = nil
      $0.shots = self.shots
      $0.model = .reconstructing(.starting)
    }
    await store.receive(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 1, totalSteps: 4))) {
      $0.model = .reconstructing(ModelReconstructionProgress(completedSteps: 1, totalSteps: 4))
    }
    await store.send(.cancelReconstructionTapped) { $0.model = .failed("Model creation was cancelled.") }
    XCTAssertEqual(clock.sleeperCount, 0, "the reconstruction's wait was cancelled")
    await clock.advance(by: .seconds(10))  // nothing more arrives
    await store.send(.reconstructionProgressed(ModelReconstructionProgress(completedSteps: 4, totalSteps: 4)))
    await store.send(.cancelReconstructionTapped)
    XCTAssertEqual(store.state.screen, .reconstructionFailed(reason: "Model creation was cancelled."))
    await store.finish()
  }

  func testLeavingMidCaptureReleasesTheSessionAndStopsListening() async {
    let session = FakeCaptureSession()
    let store = TestStore(initialState: ScanFeature.State(workingDirectory: ScanFixtures.folder)) {
      ScanFeature()
    } withDependencies: {
      $0.captureSession = session.client
    }
    await store.send(.capture(.start)) { $0.capture?.hasStarted = true }
    session.send(.stateChanged(.ready))
    await store.receive(.capture(.sessionEvent(.stateChanged(.ready)))) { $0.capture?.session = .ready }

    await store.send(.onDisappear)
    await store.receive(.capture(.released)) { $0.capture?.isReleased = true }
    await store.receive(.upload(.onDisappear))
    XCTAssertEqual(session.terminations, ["cancelled"])
    XCTAssertFalse(session.send(.stateChanged(.detecting)), "nobody listens to the session any more")
    XCTAssertEqual(store.state.screen, .capture(.closed))
    await store.finish()
  }

  func testLeavingMidReconstructionCancelsIt() async {
    let clock = TestClock()
    let store = TestStore(initialState: ScanFixtures.completedCapture()) {
      ScanFeature()
    } withDependencies: {
      $0.clock = clock
      $0.uuid = .incrementing
      $0.modelReconstruction.reconstruct = { request, _ in
        try await clock.sleep(for: .seconds(10))
        return ScanFixtures.model(for: request)
      }
    }
    await store.send(.capture(.createModelTapped))
    await store.receive(.capture(.delegate(.createModel(shots)))) {
      $0.capture = nil
      $0.shots = self.shots
      $0.model = .reconstructing(.starting)
    }
    await store.send(.onDisappear) { $0.model = .failed("Model creation was cancelled.") }
    await store.receive(.upload(.onDisappear))
    XCTAssertEqual(clock.sleeperCount, 0)
    await store.finish()
  }

  func testLeavingMidUploadCancelsIt() async {
    let clock = TestClock()
    let model = ScanFixtures.model(for: ModelReconstructionRequest(shots: shots, outputURL: ScanFixtures.firstModelURL))
    let store = TestStore(
      initialState: ScanFeature.State(
        workingDirectory: ScanFixtures.folder, capture: nil, shots: shots, model: .ready(model))
    ) {
      ScanFeature()
    } withDependencies: {
      $0.clock = clock
      $0.imageUploadClient.upload = { _, _, _ in
        try await clock.sleep(for: .seconds(30))
        return ["never"]
      }
    }
    await store.send(.uploadTapped)
    await store.receive(.upload(.uploadRequested([ScanFixtures.item(model)]))) {
      $0.upload.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 4_096))
    }
    await store.send(.onDisappear)
    await store.receive(.upload(.onDisappear)) { $0.upload.status = .idle }
    XCTAssertEqual(clock.sleeperCount, 0, "the upload was cancelled")
    await clock.advance(by: .seconds(30))
    XCTAssertNil(store.state.uploadedModelID)
    await store.finish()
  }

  func testACaptureThatFailsNeverReachesReconstruction() async {
    let session = FakeCaptureSession()
    let store = TestStore(initialState: ScanFeature.State(workingDirectory: ScanFixtures.folder)) {
      ScanFeature()
    } withDependencies: {
      $0.captureSession = session.client
    }
    await store.send(.capture(.start)) { $0.capture?.hasStarted = true }
    session.send(.stateChanged(.failed(reason: "Not enough light")))
    await store.receive(.capture(.sessionEvent(.stateChanged(.failed(reason: "Not enough light"))))) {
      $0.capture?.session = .failed(reason: "Not enough light")
    }
    await store.send(.capture(.createModelTapped))
    await store.send(.retryReconstructionTapped)
    await store.send(.uploadTapped)
    XCTAssertEqual(store.state.screen, .capture(.failed(reason: "Not enough light")))
    XCTAssertEqual(store.state.model, .notStarted)
    await store.finish()
  }

  func testTheUnimplementedReconstructionFailsTheTest() async {
    let failures = TestFailures()
    let store = TestStore(
      initialState: ScanFixtures.completedCapture(),
      reducer: { ScanFeature() },
      withDependencies: { $0.uuid = .incrementing },
      reporter: failures.reporter)
    await store.send(.capture(.createModelTapped))
    await store.receive(.capture(.delegate(.createModel(shots)))) {
      $0.capture = nil
      $0.shots = self.shots
      $0.model = .reconstructing(.starting)
    }
    let error = ModelReconstructionError.notConfigured(
      "ModelReconstructionClient.reconstruct is unimplemented in tests")
    await store.receive(.reconstructionFailed(error)) { $0.model = .failed(error.description) }
    await store.finish()
    XCTAssertEqual(failures.messages.count, 1, "\(failures.messages)")
    XCTAssertTrue(
      failures.messages.first?.contains("ModelReconstructionClient.reconstruct is unimplemented") ?? false,
      "\(failures.messages)")
  }

  func testTheScreenIsDerivedFromTheState() {
    let model = ScanFixtures.model(for: ModelReconstructionRequest(shots: shots, outputURL: ScanFixtures.firstModelURL))
    var state = ScanFeature.State(workingDirectory: ScanFixtures.folder, capture: nil)
    XCTAssertEqual(state.screen, .closed)
    state.model = .reconstructing(ModelReconstructionProgress(completedSteps: 3, totalSteps: 4))
    XCTAssertEqual(state.screen, .reconstructing(ModelReconstructionProgress(completedSteps: 3, totalSteps: 4)))
    state.model = .failed("no")
    XCTAssertEqual(state.screen, .reconstructionFailed(reason: "no"))
    state.model = .ready(model)
    state.upload.status = .failure("offline")
    state.uploadedModelID = "m1"
    XCTAssertEqual(state.screen, .preview(model: model, upload: .failure("offline"), uploadedID: "m1"))
    // While a capture exists, its screen wins: a model from an earlier capture is not shown over it.
    state.capture = CaptureSessionFeature.State(configuration: CaptureFixtures.configuration, session: .capturing)
    XCTAssertEqual(state.screen, .capture(.capture(phase: .capturing, shotCount: 0, warning: nil)))
  }
}

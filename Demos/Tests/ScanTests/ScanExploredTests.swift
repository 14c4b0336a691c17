import FeatureTestSupport
import Foundation
import ImageUpload
import ModelReconstruction
import Scan
import Testing
import Unidirectional
import UnidirectionalTesting

/// `ScanFeatureTests`' scenarios under every schedule of a reconstruction and an upload whose steps race: each
/// reconstruction step and the upload answer when the explorer lets them, between any two of the user's taps.
@MainActor
struct ScanExploredTests {
  /// The reconstructions asked for, by output file, and the files uploaded.
  final class Backend: Sendable {
    private let requested = LockIsolated<[URL]>([])

    var reconstruction: ModelReconstructionClient {
      ModelReconstructionClient { request, progress in
        self.requested.withLock { $0.append(request.outputURL) }
        // As the live client: cancellation stops it between steps.
        for step in 1...2 {
          await withRacing(ifCancelled: .isIgnored) {}
          try Task.checkCancellation()
          progress(ModelReconstructionProgress(completedSteps: step, totalSteps: 2))
        }
        return ScanFixtures.model(for: request)
      }
    }

    var upload: ImageUploadClient {
      ImageUploadClient { items, _, _ in
        try Task.checkCancellation()
        await withRacing(ifCancelled: .isIgnored) {}
        try Task.checkCancellation()
        return items.map { MediaID("media-\($0.fileURL.lastPathComponent)") }
      }
    }

    /// The output file of the reconstruction asked for last.
    var latestRequest: URL? { requested.value.last }
  }

  /// A store from a completed capture, checking after every action that the model shown is the one asked for
  /// last and the id uploaded is that model's.
  static func makeStore(backend: Backend, clock: TestClock) -> TestStoreOf<ScanFeature> {
    let store = TestStore(initialState: ScanFixtures.completedCapture()) {
      ScanFeature()
    } withDependencies: {
      $0.clock = clock
      $0.uuid = .incrementing
      $0.modelReconstruction = backend.reconstruction
      $0.imageUploadClient = backend.upload
    }
    store.exhaustivity = .off
    store.checkEveryState { state, _ in
      if case let .ready(model) = state.model {
        #expect(model.fileURL == backend.latestRequest, "a model shown that is not the one asked for last")
        if let id = state.uploadedModelID {
          #expect(id == MediaID("media-\(model.fileURL.lastPathComponent)"), "the id of another model's upload")
        }
      }
    }
    return store
  }

  /// `testCancellingTheReconstructionStopsItAndOffersARetry` and `testTheWholeFlowFromCaptureToUploadedModel`:
  /// create the model, cancel, try again, upload.
  static func createCancelRetryUpload() async {
    let backend = Backend()
    let clock = TestClock()
    let store = makeStore(backend: backend, clock: clock)
    await store.send(.capture(.createModelTapped))
    await store.send(.cancelReconstructionTapped)
    await store.send(.retryReconstructionTapped)
    await store.send(.uploadTapped)
    await store.finish()
    await store.skipReceivedActions(strict: false)
    guard case let .ready(model) = store.state.model else {
      Issue.record("no model after the retry: \(store.state.model)")
      return
    }
    #expect(model.fileURL == backend.latestRequest)
  }

  @Test func createCancelRetryUploadUnderEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.createCancelRetryUpload() }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }

  /// `testAFailedUploadShowsTheReasonClearsAndCanBeRetried` and `testLeavingMidReconstructionCancelsIt`: create
  /// the model, upload it, leave while either may be under way.
  static func createUploadLeave() async {
    let backend = Backend()
    let clock = TestClock()
    let store = makeStore(backend: backend, clock: clock)
    let hasLeft = LockIsolated(false)
    store.checkEveryState { state, action in
      // `.onDisappear` hands the upload its own `.onDisappear`, reduced right after it: checked from then on.
      if action == .upload(.onDisappear) { hasLeft.withLock { $0 = true } }
      guard hasLeft.value else { return }
      if case .reconstructing = state.model { Issue.record("reconstructing after leaving") }
      #expect(!state.upload.isLoading, "uploading after leaving")
    }
    await store.send(.capture(.createModelTapped))
    await store.send(.uploadTapped)
    await store.send(.onDisappear)
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(!store.state.upload.isLoading)
  }

  @Test func createUploadLeaveUnderEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.createUploadLeave() }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }
}

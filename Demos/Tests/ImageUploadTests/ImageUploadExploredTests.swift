import FeatureTestSupport
import Foundation
import HTTPClient
import ImageUpload
import Images
import PhotoAnalysis
import Testing
import Unidirectional
import UnidirectionalTesting

/// `ImageUploadFeatureTests`' scenarios under every schedule of an upload shaped like the live presigned flow —
/// loading, one presign call, then parallel PUTs (`UploadConcurrency`, at most two at a time) reporting through
/// `UploadProgressReporter` — whose every answer races: the explorer decides which PUT finishes first and where
/// the user's taps land between them.
@MainActor
struct ImageUploadExploredTests {
  /// A store of the feature uploading to `storage`, checking after every action that the progress shown never
  /// goes back during an upload and that the parent hears of each upload once.
  static func makeStore(
    storage: RacingUploadStorage, clock: TestClock, analysis: PhotoAnalysisFeature.State? = nil
  ) -> TestStoreOf<ImageUploadFeature> {
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive, analysis: analysis)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.photoMetadata.analyze = { url in try await withRacing { Self.report(for: url) } }
      $0.imageLoader.load = { images in try await withRacing { images.map(UploadFixtures.loaded) } }
      $0.imageUploadClient = storage.client
    }
    store.exhaustivity = .off
    let shown = LockIsolated((completed: Int64(0), delegates: 0))
    store.checkEveryState { state, action in
      switch action {
      case .uploadRequested, .itemsPicked:
        shown.withLock { $0 = (0, 0) }
      case .uploadProgressed:
        if case let .uploading(progress) = state.status {
          #expect(progress.completedBytes >= shown.value.completed, "the progress shown went back")
          shown.withLock { $0.completed = progress.completedBytes }
        }
      case .delegate:
        shown.withLock { $0.delegates += 1 }
        #expect(shown.value.delegates == 1, "the parent heard of one upload twice")
      default:
        break
      }
    }
    return store
  }

  /// What the photo analysis says of a file: edited when its name says so.
  nonisolated static func report(for url: URL) -> PhotoAnalysisReport {
    url.lastPathComponent.contains("edited") ? .previewEdited : .previewOriginal
  }

  /// `testHappyPathUploadsInPickOrderAndTellsTheParent`: three images, the PUTs finishing in any order.
  static func uploadThree() async {
    let storage = RacingUploadStorage()
    let clock = TestClock()
    let store = makeStore(storage: storage, clock: clock)
    await store.send(.itemsPicked(UploadFixtures.picked))
    await store.receive(.delegate(.uploadCompleted(["media-sunset", "media-cat", "media-beach"])))
    #expect(store.state.status == .success(["media-sunset", "media-cat", "media-beach"]), "ids in pick order")
    await clock.advance(by: ImageUploadFeature.statusDisplayDuration)
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.status == .idle)
    #expect(storage.mostInFlight <= RacingUploadStorage.limit)
  }

  @Test func uploadThreeUnderEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.uploadThree() }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }

  /// `testLeavingCancelsTheInFlightUpload`: the user leaves while the images load, or are presigned, or upload.
  static func uploadThreeAndLeave() async {
    let storage = RacingUploadStorage()
    let clock = TestClock()
    let store = makeStore(storage: storage, clock: clock)
    let hasLeft = LockIsolated(false)
    store.checkEveryState { state, action in
      if action == .onDisappear { hasLeft.withLock { $0 = true } }
      #expect(!hasLeft.value || state.status == .idle, "\(action) changed the screen after the user left")
    }
    await store.send(.itemsPicked(UploadFixtures.picked))
    await store.send(.onDisappear)
    storage.userLeft()
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.status == .idle)
    #expect(storage.putsAfterLeaving == 0, "a PUT started after the user left")
  }

  @Test func uploadThreeAndLeaveUnderEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.uploadThreeAndLeave() }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }

  /// `testAPickWhileUploadingReplacesTheUpload`: three images, then one more picked while they upload.
  static func pickAgainWhileUploading() async {
    let storage = RacingUploadStorage()
    let clock = TestClock()
    let store = makeStore(storage: storage, clock: clock)
    let second = Array(UploadFixtures.picked.suffix(1))
    await store.send(.itemsPicked(UploadFixtures.picked))
    await store.send(.itemsPicked(second))
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.pickedImages == second)
    #expect(store.state.status == .success(["media-beach"]))
  }

  @Test func pickAgainWhileUploadingUnderEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.pickAgainWhileUploading() }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }

  /// `PhotoAnalysisInImageUploadTests`: two photos scored next to their upload, then another picked while they
  /// are: every score shown is its own photo's (the ids of the analysed photos are their positions in the pick,
  /// so a score of the first pick landing in the second would show on the wrong photo).
  static func pickAgainWhileScoring() async {
    let storage = RacingUploadStorage()
    let clock = TestClock()
    let store = makeStore(storage: storage, clock: clock, analysis: PhotoAnalysisFeature.State())
    store.checkEveryState { state, _ in
      for photo in state.analysis?.photos ?? [] {
        if case let .analysed(report) = photo.status {
          #expect(report == Self.report(for: photo.image.fileURL), "a score shown on another photo")
        }
      }
    }
    let first = ["sunset.jpg", "edited.jpg"].map { PickedImage(fileURL: URL(fileURLWithPath: "/photos/\($0)")) }
    let second = [PickedImage(fileURL: URL(fileURLWithPath: "/photos/edited-again.jpg"))]
    await store.send(.itemsPicked(first))
    await store.send(.itemsPicked(second))
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.analysis?.photos.map(\.status) == [.analysed(.previewEdited)])
  }

  @Test func pickAgainWhileScoringUnderEverySchedule() async {
    // Two analyses, a load and an upload race here: 680 schedules at bound 2, 8,069 at bound 3 (~24 s).
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 2)) { await Self.pickAgainWhileScoring() }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }
}

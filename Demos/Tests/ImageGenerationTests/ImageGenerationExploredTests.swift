import Foundation
import ImageGeneration
import Testing
import Unidirectional
import UnidirectionalTesting

/// `ImageGenerationFeatureTests`' scenarios under every schedule of a service and a disk whose answers race: a
/// generation answers, and each file is written, when the explorer lets it, between any two of the user's edits.
@MainActor
struct ImageGenerationExploredTests {
  typealias Feature = ImageGenerationFeature

  /// A store whose service answers with one image named after the prompt it was asked for, checking after every
  /// action that images arriving are those of the inputs shown (an edit after they arrived keeps them, by design),
  /// and that no file is recorded twice.
  static func makeStore(written: LockIsolated<[URL]>) -> TestStoreOf<Feature> {
    let store = TestStore(initialState: Feature.State(saveFolder: URL(fileURLWithPath: "/generated"))) {
      Feature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.imageGeneration = ImageGenerationClient { request in
        try await withRacing { [GeneratedImage(id: request.prompt, data: Data(request.prompt.utf8), format: .png)] }
      }
      $0.generatedImageStorage = GeneratedImageStorage { _, url in
        try await withRacing { written.withLock { $0.append(url) } }
      }
    }
    store.exhaustivity = .off
    store.checkEveryState { state, action in
      if case .generationResponse = action, case let .generated(images) = state.status {
        #expect(images.map(\.id) == [state.fullPrompt], "images of another prompt are shown")
      }
      #expect(Set(state.savedFiles).count == state.savedFiles.count, "a file is recorded twice")
    }
    return store
  }

  /// `testEditingThePromptCancelsTheRequestInFlight` and `testGeneratingAgainReplacesTheRequestInFlight`: generate,
  /// edit the prompt, generate again.
  static func generateEditGenerate() async {
    let store = makeStore(written: LockIsolated([]))
    await store.send(.promptChanged("a kite"))
    await store.send(.generateTapped)
    await store.send(.promptChanged("a kite at dusk"))
    await store.send(.generateTapped)
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.images.map(\.id) == ["a kite at dusk"])
  }

  @Test func generateEditGenerateUnderEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.generateEditGenerate() }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }

  /// `testGenerateSaveAndShare` and `testSavingWhileSavingIsIgnoredAndLeavingLetsTheSaveFinish`: generate, save,
  /// generate again and save again while the first save may still be writing, then leave.
  static func saveWhileGeneratingAgain() async {
    let written = LockIsolated<[URL]>([])
    let store = makeStore(written: written)
    await store.send(.promptChanged("a kite"))
    await store.send(.generateTapped)
    await store.send(.saveTapped)
    await store.send(.generateTapped)
    await store.send(.saveTapped)
    await store.send(.leave)
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(!store.state.isSaving)
    #expect(store.state.savedFiles == written.value, "the files recorded are the files written")
  }

  @Test func saveWhileGeneratingAgainUnderEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.saveWhileGeneratingAgain() }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
  }
}

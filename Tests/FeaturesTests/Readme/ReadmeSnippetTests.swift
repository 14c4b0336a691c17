import Features
import Foundation
import Testing
import Unidirectional
import UnidirectionalActionLog
import UnidirectionalTesting

/// The README's "Composing features" and "Action logs" snippets, kept compiling and passing here (inside a suite so
/// their names don't clash with the real features).
@Suite struct ReadmeSnippets {
  public struct ArchiveFeature: Reducer {
    public struct State: Equatable, Sendable {
      public var upload = ImageUploadFeature.State(maxCount: 10, mediaType: .archive)
      public var mediaIDs: [MediaID] = []
    }
    public enum Action: Equatable, Sendable {
      case upload(ImageUploadFeature.Action)
      public static let uploadCase = CasePath(Action.upload) { if case let .upload(action) = $0 { action } else { nil } }
    }

    public var body: some Reducer<State, Action> {
      Scope(state: \.upload, action: Action.uploadCase) { ImageUploadFeature() }
      Reduce { state, action in
        if case let .upload(.delegate(.uploadCompleted(ids))) = action { state.mediaIDs.append(contentsOf: ids) }
        return .none
      }
    }
  }

  @Test func theParentKeepsTheIDsItsChildDelegates() async {
    let store = TestStore(initialState: ArchiveFeature.State()) { ArchiveFeature() }
    await store.send(.upload(.delegate(.uploadCompleted(["m1", "m2"])))) { $0.mediaIDs = ["m1", "m2"] }
  }

  struct Feature: Reducer {
    struct State: Codable, Equatable, Sendable { var count = 0 }
    enum Action: Codable, Equatable, Sendable { case increment }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  @Test func aRecordedLogReplaysToTheSameStates() async throws {
    let logURL = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: logURL) }
    try await withDependencies {
      $0.clock = ImmediateClock()
    } operation: {
      let recorder = try ActionRecorder(fileURL: logURL)
      let store = Store(initialState: Feature.State(), recordingTo: recorder) { Feature() }
      store.send(.increment)
      store.send(.increment)
      try await recorder.close()
    }

    let replay = try ActionLogReplay(contentsOf: logURL, reducer: Feature())
    var counts: [Int] = []
    while let step = try replay.next() { counts.append(step.state.count) }
    #expect(counts == [1, 2])
    #expect(replay.firstDivergence == nil)
  }
}

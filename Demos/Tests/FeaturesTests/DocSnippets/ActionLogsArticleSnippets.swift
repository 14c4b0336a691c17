// swift-format-ignore-file
// The "Action logs and replay" article's code (Sources/UnidirectionalActionLog/UnidirectionalActionLog.docc/
// ActionLogsAndReplay.md), compiled and run here; Scripts/tests/test_doc_snippets.py checks that the article shows
// it verbatim. Not reformatted by swift-format, so that the article and this file stay the same text.
import Foundation
import Testing
import Unidirectional
import UnidirectionalActionLog

@Suite struct ActionLogsArticleSnippets {
  struct Feature: Reducer {
    struct State: Codable, Equatable, Sendable { var count = 0 }
    enum Action: Codable, Equatable, Sendable { case increment }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  @Test func recordThenReplay() async throws {
    let logURL = FileManager.default.temporaryDirectory.appendingPathComponent("article-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: logURL) }
    try await withDependencies {
      $0.clock = ImmediateClock()
    } operation: {
      let recorder = try ActionRecorder(fileURL: logURL)
      let store = Store(initialState: Feature.State(), recordingTo: recorder) { Feature() }
      store.send(.increment)
      try await recorder.close()   // flushes; releasing the store flushes too

      let replay = try ActionLogReplay(contentsOf: logURL, reducer: Feature())
      while let step = try replay.next() { print(step.action, step.stateDiff ?? "") }
      if let divergence = replay.firstDivergence { print(divergence) }
      #expect(replay.firstDivergence == nil)

      let again = try ActionLogReplay(contentsOf: logURL, reducer: Feature())
      var counts: [Int] = []
      while let step = try again.next() { counts.append(step.state.count) }
      let expected: [Int] = [1]
      #expect(counts == expected)
    }
  }
}

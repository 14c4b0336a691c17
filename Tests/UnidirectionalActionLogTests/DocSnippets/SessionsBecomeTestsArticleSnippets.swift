// swift-format-ignore-file
// The "Sessions become tests" article's code (Sources/UnidirectionalActionLog/UnidirectionalActionLog.docc/
// SessionsBecomeTests.md), compiled and run here; Scripts/tests/test_doc_snippets.py checks that the article shows
// it verbatim. Not reformatted by swift-format, so that the article and this file stay the same text.
import Foundation
import Testing
import Unidirectional
import UnidirectionalActionLog
import UnidirectionalTesting

@Suite struct SessionsBecomeTestsArticleSnippets {
  @Test func recordReplayAndWriteATest() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("article-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let logURL = folder.appendingPathComponent("checklist.jsonl")
    let testURL = folder.appendingPathComponent("ChecklistSessionTests.swift")

    // What a running app has: random UUIDs, the system's date, a clock.
    try await withDependencies {
      $0.uuid = .random
      $0.date = DateGenerator { Date() }
      $0.clock = ImmediateClock()
    } operation: {
      let recorder = try ActionRecorder(fileURL: logURL)
      let store = Store(initialState: Checklist.State(items: Shared(value: [])), recordingTo: recorder) {
        Checklist()
      }
      store.send(.draftChanged("Milk"))
      store.send(.addTapped)
      await store.send(.syncTapped).finish()
      try await recorder.close()
    }

    // Replayed with no dependency given: the reducer gets the UUID and the date it read when recording.
    let replay = try ActionLogReplay(contentsOf: logURL, reducer: Checklist())
    while let step = try replay.next() {
      print(step.number, step.reads?.uuids ?? [])   // the UUIDs the reducer made at that step, given back
    }
    #expect(replay.firstDivergence == nil)
    #expect(replay.state.items.map(\.title) == ["Milk"])

    var configuration = ActionLogTestWriter.Configuration(
      testName: "checklistSession", imports: ["Checklist"], reducer: "Checklist()")
    configuration.stepsTakeAnyReducer = true
    let source = try ActionLogTestWriter.source(fromLog: logURL, reducer: Checklist(), configuration: configuration)
    try source.write(to: testURL, atomically: true, encoding: .utf8)

    let written = try String(contentsOf: testURL, encoding: .utf8)
    #expect(written.contains(#"  await store.send(.draftChanged("Milk")) { $0.draft = "Milk" }"#))
    #expect(written.contains("  await store.send(.syncTapped) { $0.sync = .syncing(count: 1) }"))
    #expect(written.contains("      $0.uuid = .sequence([UUID(uuidString: \"\(replay.state.items[0].id.uuidString)\")!])"))
  }
}

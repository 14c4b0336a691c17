// swift-format-ignore-file
// The "Exploring interleavings" article's code (Sources/UnidirectionalTesting/UnidirectionalTesting.docc/
// ExploringInterleavings.md) that is not the corpus' own (its scenario is StaleSearchResponseTests'), compiled and run
// here; Scripts/tests/test_doc_snippets.py checks that the article shows it verbatim. Not reformatted by swift-format,
// so that the article and this file stay the same text.
import Testing
import Unidirectional
import UnidirectionalTesting

@MainActor
struct ExploringInterleavingsArticleSnippets {
  typealias Download = ServiceEventTests.Download

  @Test func aServicesEventIsDeliveredWhereTheExplorerChooses() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      let progress = RacingStream<Double>()
      let store = TestStore(initialState: Download.State()) {
        Download(progressEvents: { progress.stream }, title: { try await withRacing { "Song" } }, cancelsTheDownload: true)
      }
      store.exhaustivity = .off
      await store.send(.start)
      progress.yield(0.5)   // delivered when the explorer chooses: before the cancel, or after it
      await store.send(.cancel)
      progress.finish()
      await store.finish()
      await store.skipReceivedActions(strict: false)
      #expect(store.state.progress == nil, "progress shown after the download was cancelled")
    }
    #expect(report.failingSchedule == nil)
    #expect(report.schedulesRun > 1)
  }

  @Test func theReportSaysWhatFailedWhereAndHow() async {
    let failures = TestFailures()
    let report = await exploreInterleavings(.exhaustive(), reporter: failures.reporter) {
      await StaleSearchResponseTests.typeTwoLetters(fixed: false)
    }
    #expect(report.failingSchedule == "4:1")   // the pin: exploreInterleavings(replaying: "4:1") { … }
    #expect(report.failures.count == 1)        // what failed in that schedule
    #expect(report.choices.count == 6)         // the schedule in words, a line a choice
    #expect(report.failingRunTrace != nil)     // the failing run, saved for the inspector
    #expect(failures.messages.count == 1)      // reported once, to `failures` instead of the test
  }

  /// Loads the profile and the theme at once.
  struct Settings: Reducer {
    struct State: Equatable {
      var profile: String?
      var theme: String?
    }
    enum Action: Equatable { case appeared, profileLoaded(String), themeLoaded(String) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .appeared:
        return .merge(
          .run { send in send(.profileLoaded(try await withRacing { "Blob" })) },
          .run { send in send(.themeLoaded(try await withRacing { "dark" })) })
      case let .profileLoaded(profile):
        state.profile = profile
        return .none
      case let .themeLoaded(theme):
        state.theme = theme
        return .none
      }
    }
  }

  static func appear(invariant: @escaping (Settings.State, Settings.Action) -> Void) async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    store.exhaustivity = .off
    store.checkEveryState(invariant)
    await store.send(.appeared)
    await store.finish()
  }

  @Test func anInvariantTrueOnlyFirstInFirstOutFailsACorrectFeature() async {
    let report = await exploreInterleavings(.exhaustive(), reporter: TestFailures().reporter) {
      await Self.appear { state, action in
        if case .themeLoaded = action { #expect(state.profile != nil, "the theme arrived before the profile") }
      }
    }
    #expect(report.failingSchedule != nil, "the two answers come in either order: the check is wrong, not the feature")
    let holds = await exploreInterleavings(.exhaustive()) {
      await Self.appear { state, action in
        if case .themeLoaded = action { #expect(state.theme == "dark") }
      }
    }
    #expect(holds.failingSchedule == nil)
  }
}

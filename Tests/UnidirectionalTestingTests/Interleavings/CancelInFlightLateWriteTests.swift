import Testing
import Unidirectional
import UnidirectionalTesting

/// `cancelInFlight` against a late answer: each edit saves the draft and cancels the save in flight, but the older
/// save's answer still lands after the newer one's — written to shared state from the effect, where a cancelled
/// effect's `send` would have been dropped — and the editor shows the draft as saved at its older text.
///
/// The library drops the late *send* of an effect `cancelInFlight` replaced (see the last test): the race users
/// meet is the work a cancelled effect does without sending.
@MainActor
struct CancelInFlightLateWriteTests {
  struct Editor: Reducer {
    struct State: Equatable {
      var text = ""
      @Shared var savedText: String
    }
    enum Action: Equatable { case textChanged(String), saved(String) }
    enum CancelID { case save }
    /// Saves a draft; answers with the text the server stored. The client ignores cancellation (a callback SDK
    /// bridged with a continuation): a cancelled save still answers.
    let save: @Sendable (String) async -> String
    /// The fix: the answer comes back as an action, which an effect cancelled by a newer save cannot send.
    let feedsTheAnswerBack: Bool

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .textChanged(text):
        state.text = text
        let savedText = state.$savedText
        return .run { [save, feedsTheAnswerBack] send in
          let stored = await save(text)
          if feedsTheAnswerBack {
            send(.saved(stored))
          } else {
            savedText.withLock { $0 = stored }
          }
        }
        .cancellable(id: CancelID.save, cancelInFlight: true)
      case let .saved(text):
        state.$savedText.withLock { $0 = text }
        return .none
      }
    }
  }

  /// Types "a" then "ab": once every save has answered, the saved text is the last draft.
  static func typeTwoLetters(fixed: Bool) async {
    let store = TestStore(initialState: Editor.State(savedText: Shared(value: ""))) {
      Editor(save: { text in await withRacing(ifCancelled: .isIgnored) { text } }, feedsTheAnswerBack: fixed)
    }
    store.exhaustivity = .off
    await store.send(.textChanged("a"))
    await store.send(.textChanged("ab"))
    await store.finish()
    await store.skipReceivedActions(strict: false)
    #expect(store.state.savedText == "ab", "the draft shows as saved at an older text")
  }

  @Test func theExplorerFindsTheOlderSaveLandingLast() async throws {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 1), reporter: TestFailures().reporter) {
      await Self.typeTwoLetters(fixed: false)
    }
    #expect(report.failures.contains { $0.contains("the draft shows as saved at an older text") })
    // First in, first out, the older answer lands first and the newer overwrites it: the race needs the answer
    // to "ab" to arrive before the answer to "a", one deviation.
    #expect(try Schedule(report.failingSchedule ?? "").count == 1)

    // The printed schedule replays the failure, the same failure every time.
    let schedule = report.failingSchedule ?? ""
    for _ in 0..<100 {
      let replay = await exploreInterleavings(replaying: schedule, reporter: TestFailures().reporter) {
        await Self.typeTwoLetters(fixed: false)
      }
      #expect(replay.failingSchedule == schedule)
      #expect(replay.failures == report.failures)
    }
  }

  @Test func thePlainTestStoreRunsOneOrderAndMissesIt() async {
    // Outside an exploration `withRacing` answers at once: each save answers before the next edit.
    await Self.typeTwoLetters(fixed: false)
  }

  @Test func theFixedFeaturePassesEverySchedule() async {
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) { await Self.typeTwoLetters(fixed: true) }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
    #expect(report.schedulesRun > 1)
  }

  // MARK: What the library already handles

  @Test func theLibraryDropsTheLateSendOfAnEffectCancelInFlightReplaced() async {
    // The save of "a", cancelled by the save of "ab", answers after it in some schedules: its `.saved("a")` is
    // never reduced after the edit to "ab", in any of them.
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      let store = TestStore(initialState: Editor.State(savedText: Shared(value: ""))) {
        Editor(save: { text in await withRacing(ifCancelled: .isIgnored) { text } }, feedsTheAnswerBack: true)
      }
      store.exhaustivity = .off
      store.checkEveryState { state, action in
        #expect(action != .saved("a") || state.text == "a", "a cancelled save's answer was reduced")
      }
      await store.send(.textChanged("a"))
      await store.send(.textChanged("ab"))
      await store.finish()
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
    #expect(report.schedulesRun > 1)
  }
}

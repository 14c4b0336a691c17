import Testing
import Unidirectional
import UnidirectionalTesting

/// A racing call whose task is cancelled while it waits does what a real call does: a request throws
/// `CancellationError`, so a cancelled effect does not go on with an answer it never got.
@MainActor
struct RacingCancellationTests {
  /// Logging in stores the token; logging out deletes it and cancels a login in flight.
  struct Session: Reducer {
    struct State: Equatable { var isLoggedIn = false }
    enum Action: Equatable { case loginTapped, logoutTapped, loggedIn }
    enum CancelID { case login }
    let login: @Sendable () async throws -> String
    let keychain: LockIsolated<String?>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .loginTapped:
        return .run { [login, keychain] send in
          let token = try await login()
          keychain.setValue(token)
          send(.loggedIn)
        }
        .cancellable(id: CancelID.login)
      case .logoutTapped:
        state.isLoggedIn = false
        keychain.setValue(nil)
        return .cancel(id: CancelID.login)
      case .loggedIn:
        state.isLoggedIn = true
        return .none
      }
    }
  }

  /// Logs in and out at once; after logout, no token is kept, however the login's answer races the logout.
  static func logInThenOut(login: @escaping @Sendable () async throws -> String) async {
    let keychain = LockIsolated<String?>(nil)
    let store = TestStore(initialState: Session.State()) { Session(login: login, keychain: keychain) }
    store.exhaustivity = .off
    await store.send(.loginTapped)
    await store.send(.logoutTapped)
    await store.finish()
    #expect(keychain.value == nil, "the token is kept after logout")
  }

  @Test func aCorrectLogoutPassesEveryScheduleWhenTheRacingCallThrowsOnCancellation() async {
    // Before: the first schedule failed — the cancelled login still got its token, after the logout, and stored it.
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3)) {
      await Self.logInThenOut(login: { try await withRacing { "token" } })
    }
    #expect(report.failingSchedule == nil)
    #expect(report.isComplete)
    #expect(report.schedulesRun > 1, "the token before the logout, and the cancelled login")
  }

  @Test func aCallThatIgnoresCancellationStillAnswersAndTheExplorerSaysWhatThatBreaks() async {
    // A client that ignores cancellation (a callback SDK bridged without a cancellation handler) does answer a
    // cancelled login: the feature must then not store what a cancelled effect got.
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 3), reporter: TestFailures().reporter) {
      await Self.logInThenOut(login: { await withRacing(ifCancelled: .isIgnored) { "token" } })
    }
    #expect(report.failingSchedule == "")
    #expect(report.failures.contains { $0.contains("the token is kept after logout") })
  }

  @Test func aCallThatCannotThrowAnswersAtOnceWhenCancelled() async {
    let answers = LockIsolated<[String]>([])
    let report = await exploreInterleavings(.exhaustive(maxDeviations: 2)) {
      let store = TestStore(initialState: Session.State()) {
        Session(
          login: {
            let token = await withRacing(ifCancelled: .answersAtOnce) { "token" }
            answers.withLock { $0.append(token) }
            try Task.checkCancellation()
            return token
          },
          keychain: LockIsolated(nil))
      }
      store.exhaustivity = .off
      await store.send(.loginTapped)
      await store.send(.logoutTapped)
      await store.finish()
    }
    #expect(report.failingSchedule == nil)
    #expect(answers.value.count == report.schedulesRun, "every schedule's call answered, cancelled or not")
  }

  @Test func outsideAnExplorationACancelledTaskGetsCancellationErrorWithoutRunningTheAnswer() async {
    let ran = LockIsolated(false)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await withRacing { ran.setValue(true) }
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(!ran.value)
  }
}

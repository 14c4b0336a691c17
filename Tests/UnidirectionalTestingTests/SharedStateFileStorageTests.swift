import Foundation
import Testing
import Unidirectional
import UnidirectionalTesting

/// Two tabs holding one value persisted to a file (TCA's file-storage case study; its own three tests are in
/// `SharedStateCaseStudyTests`), and what a test store does when the file changes from outside the store (another
/// process, another part of the app): the change is reported like a state change at the store's next assertion,
/// and must be asserted there.
///
/// Tests get files in memory by default; `$0.defaultFileStorage = .inMemory(files)` hands the test the files, to
/// read what was saved or to write one as someone else would.
@MainActor
@Suite struct SharedStateFileStorageTests {
  static let statsURL = URL(fileURLWithPath: "/documents/stats.json")

  @Test func aChangeIsSavedToTheFile() async throws {
    let files = InMemoryFileSystem()
    let store = makeStore(files: files)
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.$stats.withLock { $0.increment() }
    }
    let saved = try JSONDecoder().decode(Stats.self, from: try #require(files[Self.statsURL]))
    #expect(saved == store.state.counter.stats)
  }

  @Test func aFileWrittenOutsideTheStoreIsAStateChangeToAssertAtTheNextAction() async throws {
    let files = InMemoryFileSystem()
    let store = makeStore(files: files)
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.$stats.withLock { $0.increment() }
    }

    // Another process (a widget, a second window) writes the file.
    let written = Stats.counted(to: 5)
    files.write(try JSONEncoder().encode(written), to: Self.statsURL)
    #expect(store.state.counter.stats == written, "the store's state holds the file's value at once")

    await store.send(.selectTab(.profile)) {
      $0.currentTab = .profile
      $0.counter.$stats.withLock { $0 = written }
    }
  }

  @Test func aFileWrittenOutsideTheStoreAndNotAssertedFailsAtTheNextAction() async throws {
    let files = InMemoryFileSystem()
    let failures = TestFailures()
    let store = makeStore(files: files, reporter: failures.reporter)
    files.write(try JSONEncoder().encode(Stats.counted(to: 5)), to: Self.statsURL)

    await store.send(.selectTab(.profile)) {
      $0.currentTab = .profile
    }
    #expect(failures.messages.count == 1)
    let message = failures.messages.first ?? ""
    #expect(message.hasPrefix("A state change does not match expectation: …"), "\(message)")
    #expect(message.contains("-       count: 0,\n+       count: 5,"), "\(message)")
  }

  @Test func aFileWrittenAfterTheLastActionIsAssertedWithAssert() async throws {
    let files = InMemoryFileSystem()
    let store = makeStore(files: files)
    files.write(try JSONEncoder().encode(Stats.counted(to: 2)), to: Self.statsURL)
    store.assert {
      $0.profile.$stats.withLock { $0 = Stats.counted(to: 2) }
    }
  }

  @Test func aFileWrittenAfterTheLastActionAndNeverAssertedFailsAtTheEnd() async throws {
    let files = InMemoryFileSystem()
    let failures = TestFailures()
    let store = makeStore(files: files, reporter: failures.reporter)
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.$stats.withLock { $0.increment() }
    }
    files.write(try JSONEncoder().encode(Stats.counted(to: 3)), to: Self.statsURL)
    await store.finish()
    #expect(failures.messages.count == 1)
    let message = failures.messages.first ?? ""
    #expect(
      message.hasPrefix("Test store finished before asserting against changes to shared state: …"), "\(message)")
    #expect(message.contains("-       count: 1,\n+       count: 3,"), "\(message)")
  }

  @Test func aFileRewrittenWithTheSameValueIsNoChange() async throws {
    let files = InMemoryFileSystem()
    let store = makeStore(files: files)
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.$stats.withLock { $0.increment() }
    }
    // The same stats, written by someone else in another format: nothing to assert.
    files.write(Data(#"{"count":1,"maxCount":1,"minCount":0,"numberOfCounts":1}"#.utf8), to: Self.statsURL)
    await store.send(.selectTab(.profile)) {
      $0.currentTab = .profile
    }
  }

  @Test func aNonExhaustiveStoreLetsAFileChangeGoUnasserted() async throws {
    let files = InMemoryFileSystem()
    let store = makeStore(files: files)
    store.exhaustivity = .off(showSkippedAssertions: false)
    files.write(try JSONEncoder().encode(Stats.counted(to: 4)), to: Self.statsURL)
    await store.send(.selectTab(.profile)) {
      $0.currentTab = .profile
    }
    #expect(store.state.profile.stats.count == 4)
  }
}

extension SharedStateFileStorageTests {
  /// A store whose `.fileStorage` keys keep their files in `files`.
  private func makeStore(
    files: InMemoryFileSystem, reporter: TestReporter = .automatic
  ) -> TestStore<SharedStateTabs.State, SharedStateTabs.Action> {
    TestStore(
      initialState: SharedStateTabs.State(stats: .fileStorage(Self.statsURL)), reducer: { SharedStateTabs() },
      withDependencies: { $0.defaultFileStorage = .inMemory(files) }, reporter: reporter)
  }
}

extension Stats {
  /// The stats after `count` increments from zero.
  static func counted(to count: Int) -> Stats {
    var stats = Stats()
    for _ in 0..<count { stats.increment() }
    return stats
  }
}

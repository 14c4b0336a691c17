/// The test runtimes of each running test: how a ``TestClock`` advanced by a test finds the effects that may be on
/// their way to sleep on it, before any of them has registered a sleep.
///
/// Keyed by the running test, so tests running in parallel never wait for each other's effects.
///
/// ```swift
/// TestRuntimes.register(runtime)                     // a TestStore, when it is made
/// for runtime in TestRuntimes.ofCurrentTest { … }    // a TestClock, before it moves time
/// ```
package enum TestRuntimes {
  /// Adds `runtime` to the current test's runtimes (outside a test, does nothing). Held weakly.
  package static func register(_ runtime: TestRuntime) {
    guard let test = CurrentTest.id else { return }
    byTest.withLock { byTest in
      // Runtimes of stores that are gone are dropped, of this test too: a test (or a generated-program run) that
      // makes thousands of stores keeps only the live ones.
      byTest = byTest.filter { _, runtimes in runtimes.contains { $0.runtime != nil } }
      byTest[test] = (byTest[test] ?? []).filter { $0.runtime != nil } + [WeakRuntime(runtime: runtime)]
    }
  }

  /// The live runtimes registered by the current test, oldest first.
  static var ofCurrentTest: [TestRuntime] {
    guard let test = CurrentTest.id else { return [] }
    return byTest.withLock { $0[test]?.compactMap(\.runtime) ?? [] }
  }

  private struct WeakRuntime: @unchecked Sendable {
    weak var runtime: TestRuntime?
  }

  private static let byTest = LockIsolated<[AnyHashable: [WeakRuntime]]>([:])
}

/// Identifies the test a test process is running, so that each test has its own shared state and its own test
/// runtimes. The testing module provides it; the core finds it by name at run time, since it must not link the
/// testing libraries.
package protocol CurrentTestProviding: SendableMetatype {
  /// The running test (and test case), or nil outside any test.
  static var currentTest: AnyHashable? { get }
}

/// The test the current task belongs to, in a test process: what keeps parallel tests apart.
///
/// ```swift
/// guard let test = CurrentTest.id else { return processWideValue }
/// ```
enum CurrentTest {
  /// The running test (and test case), or nil outside a test process or any test.
  static var id: AnyHashable? {
    guard DependencyContext.detected == .test, let provider else { return nil }
    return provider()
  }

  /// `UnidirectionalTesting.CurrentTestProvider`, when the testing module is linked.
  private static let provider: (@Sendable () -> AnyHashable?)? = {
    guard let type = _typeByName(currentTestProviderName) as? any CurrentTestProviding.Type else { return nil }
    return { type.currentTest }
  }()

  /// The mangled name of `UnidirectionalTesting.CurrentTestProvider` (a test checks it).
  package static let currentTestProviderName = "21UnidirectionalTesting19CurrentTestProviderV"
}

import Foundation
import XCTest

/// A test class run against the real backend: one ``BackendStack`` started in `class func setUp()` and stopped in
/// `class func tearDown()`, and a fresh scratch `folder` for each test, removed after it.
///
/// ```swift
/// final class MyTests: BackendStackTestCase {
///   func testSomething() async throws {
///     let stack = try Self.backend.stack()   // fails the test if the stack could not start
///     … stack.apiURL, folder …
///   }
/// }
/// ```
class BackendStackTestCase: XCTestCase {
  private static let stackWithTestHooks = SharedBackendStack(testHooks: true)
  private static let stackWithoutTestHooks = SharedBackendStack(testHooks: false)

  /// Whether the stack enables `/test-hooks/*` and the `X-Test-Fault` header; override to run without them.
  class var usesTestHooks: Bool { true }

  /// The stack of this class (one class runs at a time, so classes that agree on ``usesTestHooks`` share one).
  static var backend: SharedBackendStack { usesTestHooks ? stackWithTestHooks : stackWithoutTestHooks }

  /// The test's scratch folder, created by set-up.
  private(set) lazy var folder = scratchFolderPath("\(type(of: self))")

  override class func setUp() {
    super.setUp()
    backend.start()
  }

  override class func tearDown() {
    backend.stop()
    super.tearDown()
  }

  override func setUpWithError() throws {
    try super.setUpWithError()
    try createScratchFolder(folder)
  }
}

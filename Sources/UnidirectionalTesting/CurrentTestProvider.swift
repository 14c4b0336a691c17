import Foundation
import Testing
import Unidirectional
import XCTest

/// Tells the core which test is running, so that each test has its own `.inMemory`, `.fileStorage` and
/// `.appStorage` values, and tests running in parallel never see each other's. The core finds this type by its
/// mangled name (it cannot import the testing libraries); a test checks that the name still matches.
package struct CurrentTestProvider: CurrentTestProviding {
  package static var currentTest: AnyHashable? {
    if let test = Test.current {
      guard let testCase = Test.Case.current, testCase.isParameterized else { return AnyHashable(test.id) }
      return AnyHashable([AnyHashable(test.id), AnyHashable(String(reflecting: testCase))])
    }
    startObservingXCTest()
    return AnyHashable(XCTestGeneration.shared.current)
  }

  /// Counts XCTest test cases from now on (they run one at a time in a process).
  static func startObservingXCTest() {
    _ = XCTestGeneration.shared
  }
}

/// Which XCTest test case of the process is running: a new number at the start of each.
private final class XCTestGeneration: NSObject, XCTestObservation, @unchecked Sendable {
  static let shared: XCTestGeneration = {
    let generation = XCTestGeneration()
    XCTestObservationCenter.shared.addTestObserver(generation)
    return generation
  }()

  private let number = LockIsolated(0)

  var current: Int { number.value }

  func testCaseWillStart(_ testCase: XCTestCase) {
    number.withLock { $0 += 1 }
  }
}

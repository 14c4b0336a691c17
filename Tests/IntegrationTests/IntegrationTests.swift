import XCTest

final class IntegrationPlaceholderTests: XCTestCase {
  func testLoopbackOnly() {
    XCTAssertTrue(true)
  }
}

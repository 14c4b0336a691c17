import Features
import XCTest

final class FeaturesModuleTests: XCTestCase {
  func testModuleLinks() {
    XCTAssertEqual(String(describing: Features.self), "Features")
  }
}

import ImageGeneration
import XCTest

final class PromptTagsTests: XCTestCase {
  func testAddingTrimsAndRejectsWithAReason() throws {
    var tags = PromptTags(maximum: 2)
    XCTAssertEqual(try tags.add("  Sunset\n"), "Sunset")
    XCTAssertThrowsError(try tags.add("SUNSET")) { XCTAssertEqual($0 as? PromptTags.Rejection, .duplicate("SUNSET")) }
    XCTAssertThrowsError(try tags.add("")) { XCTAssertEqual($0 as? PromptTags.Rejection, .empty) }
    XCTAssertThrowsError(try tags.add("a,b")) { XCTAssertEqual($0 as? PromptTags.Rejection, .containsComma) }
    XCTAssertEqual(try tags.add("dusk"), "dusk")
    XCTAssertThrowsError(try tags.add("night")) { XCTAssertEqual($0 as? PromptTags.Rejection, .full(maximum: 2)) }
    XCTAssertEqual(tags.values, ["Sunset", "dusk"])
  }

  func testRemovingIgnoresCaseAndUnknownTags() {
    var tags: PromptTags = ["Sunset", "dusk"]
    XCTAssertFalse(tags.remove("night"))
    XCTAssertTrue(tags.remove(" sunset "))
    XCTAssertEqual(tags.values, ["dusk"])
    XCTAssertTrue(tags.remove("DUSK"))
    XCTAssertTrue(tags.isEmpty)
  }

  func testAnArrayLiteralKeepsOnlyValidTags() {
    let tags: PromptTags = ["a", " A ", "", "b"]
    XCTAssertEqual(tags.values, ["a", "b"])
    XCTAssertEqual(tags.maximum, 10)
  }
}

import Foundation
import Unidirectional
import XCTest

private struct Item: Identifiable, Equatable, Codable, Sendable {
  let id: Int
  var name: String
}

final class IdentifiedArrayTests: XCTestCase {
  func testLookupUpdateInsertAndRemoveByID() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    XCTAssertEqual(items[id: 2]?.name, "b")
    items[id: 2]?.name = "B"
    XCTAssertEqual(items[1].name, "B")
    XCTAssertTrue(items.insert(Item(id: 0, name: "zero"), at: 0))
    XCTAssertEqual(items.ids, [0, 1, 2])
    XCTAssertEqual(items.index(id: 2), 2)
    XCTAssertEqual(items.remove(id: 1)?.name, "a")
    XCTAssertEqual(items.ids, [0, 2])
    XCTAssertEqual(items.index(id: 2), 1)
    items[id: 9] = Item(id: 9, name: "appended")
    XCTAssertEqual(items.ids, [0, 2, 9])
    items[id: 0] = nil
    XCTAssertEqual(items.ids, [2, 9])
  }

  func testDuplicateIDsAreRefused() {
    var items = IdentifiedArrayOf<Item>()
    XCTAssertTrue(items.append(Item(id: 1, name: "first")))
    XCTAssertFalse(items.append(Item(id: 1, name: "second")))
    XCTAssertEqual(items.map(\.name), ["first"])
    XCTAssertEqual(IdentifiedArrayOf([Item(id: 1, name: "x"), Item(id: 1, name: "y")]).count, 1)
  }

  func testRemoveAllWhereKeepsIndexesConsistent() {
    var items = IdentifiedArrayOf((0..<6).map { Item(id: $0, name: "\($0)") })
    items.removeAll { $0.id.isMultiple(of: 2) }
    XCTAssertEqual(items.ids, [1, 3, 5])
    XCTAssertEqual(items.index(id: 5), 2)
    XCTAssertEqual(items[id: 3]?.name, "3")
  }

  func testCodableRoundTripAndDuplicateIDsInDataAreAnError() throws {
    let items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    let data = try JSONEncoder().encode(items)
    XCTAssertEqual(try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: data), items)
    let duplicated = Data(#"[{"id":1,"name":"a"},{"id":1,"name":"b"}]"#.utf8)
    XCTAssertThrowsError(try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: duplicated)) { error in
      XCTAssertTrue("\(error)".contains("duplicate id"), "\(error)")
    }
  }

  func testDumpsAsAnArray() {
    let items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    XCTAssertEqual(customDump(items), customDump([Item(id: 1, name: "a")]))
  }
}

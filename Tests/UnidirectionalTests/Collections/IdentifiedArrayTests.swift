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
    XCTAssertTrue(items.insert(Item(id: 0, name: "zero"), at: 0).inserted)
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
    XCTAssertTrue(items.append(Item(id: 1, name: "first")).inserted)
    XCTAssertFalse(items.append(Item(id: 1, name: "second")).inserted)
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
      XCTAssertTrue("\(error)".contains("Duplicate element at offset 1"), "\(error)")
    }
  }

  func testDumpsAsAnArray() {
    let items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    XCTAssertEqual(customDump(items), customDump([Item(id: 1, name: "a")]))
  }

  // MARK: A complete collection: what TCA features do with their lists

  func testSortByAPredicateKeepsIDsWithTheirElements() {
    struct Todo: Identifiable, Equatable {
      let id: Int
      var isComplete: Bool
    }
    var todos: IdentifiedArrayOf<Todo> = [
      Todo(id: 1, isComplete: true), Todo(id: 2, isComplete: false), Todo(id: 3, isComplete: true),
      Todo(id: 4, isComplete: false),
    ]
    // Todos's reducer in TCA's examples: incomplete first, stable within each group.
    todos.sort { $1.isComplete && !$0.isComplete }
    XCTAssertEqual(todos.ids, [2, 4, 1, 3])
    XCTAssertEqual(todos.map(\.isComplete), [false, false, true, true])
    for (offset, todo) in todos.enumerated() { XCTAssertEqual(todos.index(id: todo.id), offset) }
    todos[id: 1]?.isComplete = false
    XCTAssertEqual(todos[2], Todo(id: 1, isComplete: false))
  }

  func testSortedReturnsAnArrayAndFilterAnIdentifiedArray() {
    let items: IdentifiedArrayOf<Item> = [Item(id: 2, name: "b"), Item(id: 1, name: "a"), Item(id: 3, name: "c")]
    let sorted: [Item] = items.sorted { $0.id < $1.id }
    XCTAssertEqual(sorted.map(\.id), [1, 2, 3])
    let filtered: IdentifiedArrayOf<Item> = items.filter { $0.id != 1 }
    XCTAssertEqual(filtered.ids, [2, 3])
    XCTAssertEqual(filtered.index(id: 3), 1)
    XCTAssertEqual(filtered[id: 3]?.name, "c")
  }

  func testMoveRemoveAtOffsetsSwapReverseShuffleKeepLookupsRight() {
    var items = IdentifiedArrayOf((0..<6).map { Item(id: $0, name: "\($0)") })
    items.move(fromOffsets: [4, 5], toOffset: 1)
    XCTAssertEqual(items.ids, [0, 4, 5, 1, 2, 3])
    items.remove(atOffsets: [0, 2])
    XCTAssertEqual(items.ids, [4, 1, 2, 3])
    items.swapAt(0, 3)
    XCTAssertEqual(items.ids, [3, 1, 2, 4])
    items.reverse()
    XCTAssertEqual(items.ids, [4, 2, 1, 3])
    var generator = SeededGenerator(seed: 7)
    items.shuffle(using: &generator)
    XCTAssertEqual(Set(items.ids), [1, 2, 3, 4])
    for (offset, item) in items.enumerated() { XCTAssertEqual(items.index(id: item.id), offset) }
  }

  func testAnElementSetByPositionWithAnotherIDIsReplacedNotTrapped() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    items[0] = Item(id: 9, name: "nine")
    XCTAssertEqual(items.ids, [9, 2])
    XCTAssertNil(items[id: 1])
    XCTAssertEqual(items[id: 9]?.name, "nine")
  }

  func testChangingAnIDInPlaceReindexesItAndADuplicateIsARuntimeIssue() {
    struct Row: Identifiable, Equatable {
      var id: Int
      var title: String
    }
    let issues = Collected<RuntimeIssue>()
    withDependencies {
      $0.issueReporter = IssueReporter { issues.append($0) }
    } operation: {
      var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "a"), Row(id: 2, title: "b"), Row(id: 3, title: "c")]
      rows[0].id = 10
      XCTAssertEqual(rows.ids, [10, 2, 3])
      XCTAssertEqual(rows[id: 10]?.title, "a")
      XCTAssertNil(rows[id: 1])
      XCTAssertTrue(issues.all.isEmpty)
      rows[id: 2]?.id = 3
      XCTAssertEqual(rows.ids, [10, 3])
      XCTAssertEqual(rows[id: 3]?.title, "b")
      XCTAssertEqual(issues.all.count, 1)
      XCTAssertTrue(issues.all.first?.message.contains("from 2 to 3") == true, "\(issues.all)")
    }
  }

  func testDuplicateIDsFromInputAreReportedAndDroppedNeverTrapped() {
    let issues = Collected<RuntimeIssue>()
    withDependencies {
      $0.issueReporter = IssueReporter { issues.append($0) }
    } operation: {
      let literal: IdentifiedArrayOf<Item> = [Item(id: 1, name: "first"), Item(id: 1, name: "second")]
      XCTAssertEqual(literal.map(\.name), ["first"])
      var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
      items.replaceSubrange(
        0..<1, with: [Item(id: 5, name: "e"), Item(id: 2, name: "duplicate"), Item(id: 6, name: "f")])
      XCTAssertEqual(items.ids, [5, 6, 2])
      XCTAssertEqual(items[id: 2]?.name, "b")
      items.insert(contentsOf: [Item(id: 7, name: "g")], at: 0)
      XCTAssertEqual(items.ids, [7, 5, 6, 2])
      items[id: 5] = Item(id: 8, name: "mismatched")
      XCTAssertEqual(items[id: 5]?.name, "e")
      XCTAssertNil(items[id: 8])
      XCTAssertEqual(issues.all.count, 3, "\(issues.all)")
    }
  }

  func testRangeReplaceableAPIsFromTheStandardLibrary() {
    var items: IdentifiedArrayOf<Item> = []
    items += [Item(id: 1, name: "a"), Item(id: 2, name: "b"), Item(id: 3, name: "c")]
    items.removeFirst()
    items.removeLast()
    XCTAssertEqual(items.ids, [2])
    items.removeSubrange(0..<1)
    XCTAssertTrue(items.isEmpty)
    XCTAssertNil(items.popLast())
  }

  func testASortTenThousandElementsKeepsEveryLookup() {
    var generator = SeededGenerator(seed: 42)
    var items = IdentifiedArrayOf(
      (0..<10_000).map { Item(id: $0, name: String(Int.random(in: 0..<1_000, using: &generator))) })
    items.sort { $0.name < $1.name }
    XCTAssertEqual(items.map(\.name), items.map(\.name).sorted())
    for (offset, item) in items.enumerated() where offset % 97 == 0 { XCTAssertEqual(items.index(id: item.id), offset) }
  }
}

private struct SeededGenerator: RandomNumberGenerator {
  var seed: UInt64
  mutating func next() -> UInt64 {
    seed = 2_862_933_555_777_941_757 &* seed &+ 3_037_000_493
    return seed
  }
}

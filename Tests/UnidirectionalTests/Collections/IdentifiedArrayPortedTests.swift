// Ported from swift-identified-collections 1.1.1, Tests/IdentifiedCollectionsTests/IdentifiedArrayTests.swift
// (MIT licence, Point-Free): the same cases against this library's IdentifiedArray. Int is made Identifiable by a
// private wrapper instead of a retroactive conformance.
import Foundation
import Unidirectional
import XCTest

private struct Number: Identifiable, Hashable, Comparable, Codable, ExpressibleByIntegerLiteral, Sendable {
  let id: Int
  init(integerLiteral value: Int) { id = value }
  init(_ value: Int) { id = value }
  static func < (lhs: Self, rhs: Self) -> Bool { lhs.id < rhs.id }
  init(from decoder: any Decoder) throws { id = try decoder.singleValueContainer().decode(Int.self) }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(id)
  }
}

private struct User: Equatable, Identifiable {
  let id: Int
  var name: String
}

final class IdentifiedArrayPortedTests: XCTestCase {
  func testIds() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(array.ids, [1, 2, 3])
  }

  func testElements() {
    let array: IdentifiedArrayOf<User> = [
      User(id: 1, name: "Blob"), User(id: 2, name: "Blob, Jr."), User(id: 3, name: "Blob, Sr."),
    ]
    XCTAssertEqual(array.elements, array.map { $0 })
  }

  func testSubscriptId() {
    var array: IdentifiedArrayOf<User> = [
      User(id: 1, name: "Blob"), User(id: 2, name: "Blob, Jr."), User(id: 3, name: "Blob, Sr."),
    ]
    XCTAssertEqual(array[id: 1], User(id: 1, name: "Blob"))
    XCTAssertEqual(array[id: 2], User(id: 2, name: "Blob, Jr."))
    XCTAssertEqual(array[id: 3], User(id: 3, name: "Blob, Sr."))
    array[id: 1]?.name += ", Esq."
    XCTAssertEqual(array[id: 1], User(id: 1, name: "Blob, Esq."))
    array[id: 2]?.name.removeLast(5)
    XCTAssertEqual(array[id: 2], User(id: 2, name: "Blob"))
    array[id: 3]?.name.removeLast(5)
    XCTAssertEqual(array[id: 3], User(id: 3, name: "Blob"))
    array[id: 3] = nil
    XCTAssertEqual(array[id: 3], nil)
    array[id: 4] = User(id: 4, name: "Blob, Sr.")
    XCTAssertEqual(array, [User(id: 1, name: "Blob, Esq."), User(id: 2, name: "Blob"), User(id: 4, name: "Blob, Sr.")])
  }

  func testContainsElement() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertTrue(array.contains(2))
  }

  func testIndexId() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(array.index(id: 2), 1)
  }

  func testRemoveElement() {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(array.remove(Number(2)), 2)
    XCTAssertEqual(array, [1, 3])
  }

  func testRemoveId() {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(array.remove(id: 2), 2)
    XCTAssertEqual(array, [1, 3])
  }

  func testCodable() throws {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(try JSONDecoder().decode(IdentifiedArrayOf<Number>.self, from: JSONEncoder().encode(array)), array)
    XCTAssertEqual(try JSONDecoder().decode(IdentifiedArrayOf<Number>.self, from: Data("[1,2,3]".utf8)), array)
    XCTAssertThrowsError(try JSONDecoder().decode(IdentifiedArrayOf<Number>.self, from: Data("[1,1,1]".utf8))) {
      guard case let DecodingError.dataCorrupted(context) = $0 else { return XCTFail("\($0)") }
      XCTAssertEqual(context.debugDescription, "Duplicate element at offset 1")
    }
  }

  func testCustomDebugStringConvertible() {
    let array: IdentifiedArrayOf<Int8Item> = [Int8Item(id: 1)]
    XCTAssertEqual(array.debugDescription, "IdentifiedArray<Int8Item>([Int8Item(id: 1)])")
  }

  func testCustomReflectable() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    let mirror = Mirror(reflecting: array)
    XCTAssertEqual(mirror.displayStyle, .collection)
    XCTAssert(mirror.superclassMirror == nil)
    XCTAssertTrue(mirror.children.compactMap(\.label).isEmpty)
    XCTAssertEqual(mirror.children.map { $0.value as? Number }, array.map { $0 })
  }

  func testCustomStringConvertible() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(array.description, [Number(1), Number(2), Number(3)].description)
  }

  func testHashable() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(Set([array]), Set([array, array]))
  }

  func testInitUncheckedUniqueElements() {
    XCTAssertEqual(IdentifiedArray(uncheckedUniqueElements: [Number(1), 2, 3]), [1, 2, 3])
  }

  func testInitUniqueElementsSelf() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(IdentifiedArray(uniqueElements: array), [1, 2, 3])
  }

  func testInitUniqueElementsSubSequence() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(IdentifiedArray(uniqueElements: array[...]), [1, 2, 3])
  }

  func testInitUniqueElements() {
    XCTAssertEqual(IdentifiedArray(uniqueElements: [Number(1), 2, 3]), [1, 2, 3])
  }

  func testSelfInit() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(IdentifiedArray(array), [1, 2, 3])
  }

  func testSubsequenceInit() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(IdentifiedArray(array[...]), [1, 2, 3])
  }

  func testInitIDUniquingElements() {
    struct Model: Equatable {
      let id: Int
      let data: String
    }
    let models = [Model(id: 1, data: "A"), Model(id: 2, data: "B"), Model(id: 1, data: "AAAA")]
    XCTAssertEqual(
      IdentifiedArray(models, id: \.id) { lhs, _ in lhs },
      IdentifiedArray(uniqueElements: [Model(id: 1, data: "A"), Model(id: 2, data: "B")], id: \.id))
    XCTAssertEqual(
      IdentifiedArray(models, id: \.id) { _, rhs in rhs },
      IdentifiedArray(uniqueElements: [Model(id: 1, data: "AAAA"), Model(id: 2, data: "B")], id: \.id))
  }

  func testInitUniquingElements() {
    struct Model: Equatable, Identifiable {
      let id: Int
      let data: String
    }
    let models = [Model(id: 1, data: "A"), Model(id: 2, data: "B"), Model(id: 1, data: "AAAA")]
    XCTAssertEqual(
      IdentifiedArray(models) { lhs, _ in lhs },
      IdentifiedArray(uniqueElements: [Model(id: 1, data: "A"), Model(id: 2, data: "B")]))
    XCTAssertEqual(
      IdentifiedArray(models) { _, rhs in rhs },
      IdentifiedArray(uniqueElements: [Model(id: 1, data: "AAAA"), Model(id: 2, data: "B")]))
  }

  func testAppend() {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    var (inserted, index) = array.append(4)
    XCTAssertEqual(inserted, true)
    XCTAssertEqual(index, 3)
    XCTAssertEqual(array, [1, 2, 3, 4])
    (inserted, index) = array.append(2)
    XCTAssertEqual(inserted, false)
    XCTAssertEqual(index, 1)
    XCTAssertEqual(array, [1, 2, 3, 4])
  }

  func testAppendContentsOf() {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    array.append(contentsOf: [1, 4, 3, 5])
    XCTAssertEqual(array, [1, 2, 3, 4, 5])
  }

  func testInsert() {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    var (inserted, index) = array.insert(0, at: 0)
    XCTAssertEqual(inserted, true)
    XCTAssertEqual(index, 0)
    XCTAssertEqual(array, [0, 1, 2, 3])
    (inserted, index) = array.insert(2, at: 0)
    XCTAssertEqual(inserted, false)
    XCTAssertEqual(index, 2)
    XCTAssertEqual(array, [0, 1, 2, 3])
  }

  func testUpdateAt() {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(array.update(2, at: 1), 2)
  }

  func testUpdateOrAppend() {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    XCTAssertEqual(array.updateOrAppend(4), nil)
    XCTAssertEqual(array, [1, 2, 3, 4])
    XCTAssertEqual(array.updateOrAppend(2), 2)
  }

  func testUpdateOrInsert() {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    var (originalMember, index) = array.updateOrInsert(0, at: 0)
    XCTAssertEqual(originalMember, nil)
    XCTAssertEqual(index, 0)
    XCTAssertEqual(array, [0, 1, 2, 3])
    (originalMember, index) = array.updateOrInsert(2, at: 0)
    XCTAssertEqual(originalMember, 2)
    XCTAssertEqual(index, 2)
    XCTAssertEqual(array, [0, 1, 2, 3])
  }

  func testPartition() {
    var array: IdentifiedArrayOf<Number> = [1, 2]
    let index = array.partition { $0.id == 1 }
    XCTAssertEqual(index, 1)
    XCTAssertEqual(array, [2, 1])
    for id in array.ids { XCTAssertEqual(id, array[id: id]?.id) }
  }

  func testMoveFromOffsetsToOffset() {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    array.move(fromOffsets: [0, 2], toOffset: 0)
    XCTAssertEqual(array, [1, 3, 2])
    array = [1, 2, 3]
    array.move(fromOffsets: [0, 2], toOffset: 1)
    XCTAssertEqual(array, [1, 3, 2])
    array = [1, 2, 3]
    array.move(fromOffsets: [0, 2], toOffset: 2)
    XCTAssertEqual(array, [2, 1, 3])
  }

  func testRemoveAtOffsets() {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    array.remove(atOffsets: [0, 2])
    XCTAssertEqual(array, [2])
  }

  func testEquatable() {
    struct Foo: Identifiable, Equatable {
      var id: String = "id"
      var value: String = "value"
    }
    var arrays: [IdentifiedArray<String, Foo>] = [
      IdentifiedArray<String, Foo>(),
      IdentifiedArray<String, Foo>(uncheckedUniqueElements: [], id: \.id),
      IdentifiedArray<String, Foo>(uniqueElements: [], id: \.id),
      IdentifiedArray<String, Foo>(uncheckedUniqueElements: []),
      IdentifiedArray<String, Foo>(uniqueElements: []),
    ]
    for lhs in arrays { for rhs in arrays { XCTAssertEqual(lhs, rhs) } }
    for index in arrays.indices { arrays[index].append(Foo()) }
    for lhs in arrays { for rhs in arrays { XCTAssertEqual(lhs, rhs) } }
    for index in arrays.indices { arrays[index].append(Foo(id: "id2", value: "\(index)")) }
    for (lhsIndex, lhs) in arrays.enumerated() {
      for (rhsIndex, rhs) in arrays.enumerated() where lhsIndex != rhsIndex { XCTAssertNotEqual(lhs, rhs) }
    }
  }

  func testIdentifiedArraySubscript() {
    struct Item: Identifiable { let id: Int }
    var items: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2), Item(id: 3)]
    items[1] = Item(id: 4)
    XCTAssertEqual(3, items.count)
    XCTAssertEqual([1, 4, 3], items.map(\.id))
  }
}

private struct Int8Item: Identifiable, Equatable, CustomDebugStringConvertible {
  let id: Int8
  var debugDescription: String { "Int8Item(id: \(id))" }
}

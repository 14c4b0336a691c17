// Ported from swift-identified-collections 1.1.1,
// Tests/IdentifiedCollectionsTests/IdentifiedArrayCollectionOperationTests.swift (MIT licence, Point-Free): every
// operation, run through the standard library's generic algorithms on `any` collection, gives the same elements as
// on an Array, and the ids stay in step with the elements.
import Foundation
import Unidirectional
import XCTest

final class IdentifiedArrayCollectionOperationTests: XCTestCase {
  func testMax() {
    assertElementsEqual { $0.max() }
    assertElementsEqual { $0.max(by: >) }
  }

  func testMin() {
    assertElementsEqual { $0.min() }
    assertElementsEqual { $0.min(by: >) }
  }

  func testRemoveFirst() {
    assertElementsEqual { $0.isEmpty ? nil : $0.removeFirst() }
  }

  func testRemoveLast() {
    assertElementsEqual { $0.isEmpty ? nil : $0.removeLast() }
  }

  func testReverse() {
    assertElementsEqual { $0.reverse() }
  }

  func testShuffleUsing() {
    var seed: UInt64 = 0
    assertElementsEqual {
      var generator = LCRNG(seed: seed)
      $0.shuffle(using: &generator)
    } setUp: {
      seed = .random(in: .min ... .max)
    }
  }

  func testSort() {
    assertElementsEqual { $0.sort() }
    assertElementsEqual { $0.sort(by: >) }
  }
}

private struct Item: Identifiable, Comparable, Equatable {
  let id = UUID()
  var count: Int

  static func < (lhs: Self, rhs: Self) -> Bool { lhs.count < rhs.count }
}

private protocol TestCollection<Element>: MutableCollection, RandomAccessCollection, RangeReplaceableCollection {}

extension Array: TestCollection {}
extension IdentifiedArray: TestCollection where Element: Identifiable, Element.ID == ID {}

private func assertElementsEqual<Result>(
  after operation: (inout (any TestCollection<Item>)) -> Result,
  setUp: () -> Void = {},
  file: StaticString = #filePath,
  line: UInt = #line
) {
  for n in 0...10 {
    let size = n * n
    for _ in 1...10 {
      setUp()
      var identifiedArray: IdentifiedArrayOf<Item> = []
      for _ in 0..<size { identifiedArray.append(Item(count: .random(in: -1_000...1_000))) }
      var anyIdentifiedArray = identifiedArray as any TestCollection<Item>
      var anyArray = Array(identifiedArray) as any TestCollection<Item>
      let lhs = operation(&anyIdentifiedArray)
      let rhs = operation(&anyArray)
      XCTAssert(
        anyIdentifiedArray.elementsEqual(anyArray), "(\(anyIdentifiedArray)) does not equal control (\(anyArray))",
        file: file, line: line)
      guard let result = anyIdentifiedArray as? IdentifiedArrayOf<Item> else {
        return XCTFail("the operation changed the collection's type", file: file, line: line)
      }
      identifiedArray = result
      XCTAssert(
        identifiedArray.ids.elementsEqual(identifiedArray.map(\.id)), "the ids are out of step with the elements",
        file: file, line: line)
      for (offset, element) in identifiedArray.enumerated() {
        XCTAssertEqual(identifiedArray.index(id: element.id), offset, file: file, line: line)
      }
      if let lhs = lhs as? any Equatable {
        func open<LHS: Equatable>(_ lhs: LHS) {
          if let rhs = rhs as? LHS { XCTAssertEqual(lhs, rhs, file: file, line: line) }
        }
        open(lhs)
      }
    }
  }
}

private struct LCRNG: RandomNumberGenerator {
  var seed: UInt64
  mutating func next() -> UInt64 {
    seed = 2_862_933_555_777_941_757 &* seed &+ 3_037_000_493
    return seed
  }
}

import Foundation
import Unidirectional
import XCTest

final class StackStateTests: XCTestCase {
  func testAStackBuiltOutsideAnyStoreNumbersItsOwnElements() {
    var stack = StackState<String>()
    stack.append("a")
    stack.append("b")
    XCTAssertEqual(stack.ids, [0, 1])
    stack.removeAll()
    stack.append("c")
    XCTAssertEqual(stack.ids, [2], "ids are generational: never reused by the same sequence")
    XCTAssertEqual(StackState(["x", "y", "z"]).ids, [0, 1, 2])
  }

  func testInsideAStoresDependenciesIDsComeFromItsGenerator() {
    let generator = StackElementIDGenerator.incrementing(from: 7)
    let stack = withDependencies {
      $0.stackElementID = generator
    } operation: {
      var stack = StackState<String>()
      stack.append("a")
      stack.append("b")
      return stack
    }
    XCTAssertEqual(stack.ids, [7, 8])
    XCTAssertEqual(generator.peek(), 9)
  }

  func testAGeneratorNeverHandsOutAnIDAlreadyOnTheStack() {
    var stack = StackState<String>()
    stack[id: 0] = "pushed by a test"
    withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      stack.append("next")
    }
    XCTAssertEqual(stack.ids, [0, 1])
  }

  func testIDSubscriptReadsReplacesPushesAndPops() {
    var stack = StackState(["a", "b"])
    XCTAssertEqual(stack[id: 1], "b")
    XCTAssertNil(stack[id: 5])
    stack[id: 1] = "B"
    stack[id: 5] = "e"
    XCTAssertEqual(Array(stack), ["a", "B", "e"])
    XCTAssertEqual(stack.ids, [0, 1, 5])
    stack[id: 0] = nil
    XCTAssertEqual(Array(stack), ["B", "e"])
    stack[id: 42] = nil
    XCTAssertEqual(stack.ids, [1, 5])
  }

  func testPopFromAndPopTo() {
    var stack = StackState(["a", "b", "c", "d"])
    stack.pop(to: 1)
    XCTAssertEqual(Array(stack), ["a", "b"])
    stack.pop(from: 1)
    XCTAssertEqual(Array(stack), ["a"])
    stack.pop(from: 9)
    stack.pop(to: 9)
    XCTAssertEqual(Array(stack), ["a"])
  }

  func testCaseSubscriptChangesTheElementInPlaceAndNilPopsIt() {
    var stack = StackState<Element>([.int(42)])
    stack[id: 0, case: Element.intCase]? += 1
    XCTAssertEqual(stack[id: 0], .int(43))
    stack[id: 0, case: Element.intCase] = nil
    XCTAssertTrue(stack.isEmpty)
  }

  func testCaseSubscriptOnAnotherCaseIsARuntimeIssueAndChangesNothing() {
    let issues = LockIsolated<[String]>([])
    var stack = StackState<Element>([.int(42)])
    withDependencies {
      $0.issueReporter = IssueReporter { issue in issues.withLock { $0.append(issue.message) } }
    } operation: {
      stack[id: 0, case: Element.textCase]?.append("!")
      stack[id: 0, case: Element.textCase] = nil
    }
    XCTAssertEqual(issues.value, ["Can't modify unrelated case \"int\".", "Can't modify unrelated case \"int\"."])
    XCTAssertEqual(Array(stack), [.int(42)])
  }

  func testEqualityNeedsTheSameElementsUnderTheSameIDs() {
    var lhs = StackState<Int>()
    lhs[id: 0] = 1
    var rhs = StackState<Int>()
    rhs[id: 1] = 1
    XCTAssertNotEqual(lhs, rhs)
    rhs = StackState([1])
    XCTAssertEqual(lhs, rhs)
    XCTAssertEqual(Set([lhs, rhs]).count, 1)
  }

  func testDumpsLabelEachElementWithItsIDAndCodesOnlyTheElements() throws {
    let stack = StackState(["a", "b"])
    XCTAssertEqual(
      customDump(stack),
      """
      StackState<String>(
        #0: "a",
        #1: "b"
      )
      """)
    XCTAssertEqual(describe(StackElementID(generation: 3)), "#3")
    let data = try JSONEncoder().encode(stack)
    XCTAssertEqual(String(decoding: data, as: UTF8.self), #"["a","b"]"#)
    XCTAssertEqual(try JSONDecoder().decode(StackState<String>.self, from: data), stack)
    XCTAssertThrowsError(try JSONDecoder().decode(StackState<String>.self, from: Data(#"{"a":1}"#.utf8)))
  }

  func testTheGeneratorPeeksAdvancesAndCopies() {
    let generator = StackElementIDGenerator.incrementing()
    XCTAssertEqual(generator.peek(), 0)
    XCTAssertEqual(generator(), 0)
    XCTAssertEqual(generator.next(), 1)
    let copy = generator.copy()
    XCTAssertEqual(copy.next(), 2)
    XCTAssertEqual(generator.peek(), 2, "a copy does not move the original")
  }
}

private enum Element: Equatable {
  case int(Int)
  case text(String)
  static let intCase = CasePath(Element.int) { if case let .int(value) = $0 { value } else { nil } }
  static let textCase = CasePath(Element.text) { if case let .text(value) = $0 { value } else { nil } }
}

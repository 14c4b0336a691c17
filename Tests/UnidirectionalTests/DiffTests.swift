import Foundation
import XCTest
@testable import Unidirectional

private struct S {
  var count: Int
  var name: String
  var tags: [String]
}

private struct Point {
  var x: Int
  var y: Int
}

private struct Line {
  var start: Point
  var end: Point
}

private enum Action {
  case idle
  case loaded(Int)
  case point(Point)
  case range(from: Int, to: Int)
}

private struct Screen {
  var title: String
  var action: Action
}

private struct Profile {
  var name: String
  var avatar: Point?
}

private struct Secret: CustomDumpRepresentable {
  var value: String
  var customDumpValue: Any { "<redacted>" }
}

private struct Login {
  var user: String
  var password: Secret
}

private struct Settings {
  var a = 1
  var b = 2
  var c = 3
  var d = 4
  var e = 5
  var f = 6
}

final class DiffTests: XCTestCase {
  func testEqualValuesHaveNoDiff() {
    XCTAssertNil(diff(S(count: 1, name: "a", tags: ["x"]), S(count: 1, name: "a", tags: ["x"])))
    XCTAssertNil(diff([1, 2, 3], [1, 2, 3]))
    XCTAssertNil(diff(Set([1, 2]), Set([2, 1])))
    XCTAssertNil(diff(["a": 1, "b": 2], ["b": 2, "a": 1]))
  }

  func testTopLevelLeafChange() {
    XCTAssertEqual(diff(1, 2), "- 1\n+ 2")
    XCTAssertEqual(diff("a", "b"), "- \"a\"\n+ \"b\"")
  }

  func testDocumentedExample() {
    let old = S(count: 1, name: "a", tags: ["x"])
    let new = S(count: 2, name: "a", tags: ["x", "y"])
    XCTAssertEqual(
      diff(old, new),
      """
        S(
      -   count: 1,
      +   count: 2,
          name: "a",
          tags: [
            [0]: "x",
      +     [1]: "y"
          ]
        )
      """
    )
  }

  func testChangedLeafField() {
    XCTAssertEqual(
      diff(Point(x: 1, y: 2), Point(x: 1, y: 3)),
      """
        Point(
          x: 1,
      -   y: 2
      +   y: 3
        )
      """
    )
  }

  func testNestedStructChange() {
    let old = Line(start: Point(x: 0, y: 0), end: Point(x: 3, y: 4))
    let new = Line(start: Point(x: 0, y: 0), end: Point(x: 3, y: 5))
    XCTAssertEqual(
      diff(old, new),
      """
        Line(
          … (1 unchanged)
          end: Point(
            x: 3,
      -     y: 4
      +     y: 5
          )
        )
      """
    )
  }

  func testEnumCaseChange() {
    XCTAssertEqual(diff(Action.idle, Action.loaded(1)), "- Action.idle\n+ Action.loaded(1)")
    XCTAssertEqual(
      diff(Screen(title: "t", action: .idle), Screen(title: "t", action: .range(from: 1, to: 2))),
      """
        Screen(
          title: "t",
      -   action: Action.idle
      +   action: Action.range(from: 1, to: 2)
        )
      """
    )
  }

  func testEnumPayloadChange() {
    XCTAssertEqual(diff(Action.loaded(1), Action.loaded(2)), "- Action.loaded(1)\n+ Action.loaded(2)")
    XCTAssertEqual(
      diff(Action.point(Point(x: 1, y: 2)), Action.point(Point(x: 1, y: 3))),
      """
        Action.point(
          Point(
            x: 1,
      -     y: 2
      +     y: 3
          )
        )
      """
    )
  }

  func testArrayInsertion() {
    XCTAssertEqual(
      diff(["a", "b", "c"], ["z", "a", "b", "c"]),
      """
        [
      +   [0]: "z",
          … (3 unchanged)
        ]
      """
    )
    XCTAssertEqual(
      diff(["a", "b"], ["a", "new", "b"]),
      """
        [
          [0]: "a",
      +   [1]: "new",
          [2]: "b"
        ]
      """
    )
  }

  func testArrayRemoval() {
    XCTAssertEqual(
      diff(["a", "b", "c"], ["a", "c"]),
      """
        [
          [0]: "a",
      -   [1]: "b",
          [1]: "c"
        ]
      """
    )
    XCTAssertEqual(diff(["a"], [String]()), "- [\n-   [0]: \"a\"\n- ]\n+ []")
  }

  func testArrayElementChange() {
    XCTAssertEqual(
      diff([1, 2, 3], [1, 20, 3]),
      """
        [
          [0]: 1,
      -   [1]: 2,
      +   [1]: 20,
          [2]: 3
        ]
      """
    )
    XCTAssertEqual(
      diff([Point(x: 1, y: 1), Point(x: 2, y: 2)], [Point(x: 1, y: 1), Point(x: 2, y: 9)]),
      """
        [
          … (1 unchanged)
          [1]: Point(
            x: 2,
      -     y: 2
      +     y: 9
          )
        ]
      """
    )
  }

  func testArrayInsertAndChangeTogether() {
    XCTAssertEqual(
      diff([1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 50, 6]),
      """
        [
      +   [0]: 0,
          … (4 unchanged)
      -   [4]: 5,
      +   [5]: 50,
          [6]: 6
        ]
      """
    )
  }

  func testDictionaryAddRemoveChange() {
    XCTAssertEqual(
      diff(["a": 1, "b": 2, "c": 3], ["a": 1, "b": 20, "d": 4]),
      """
        [
          "a": 1,
      -   "b": 2,
      +   "b": 20,
      -   "c": 3,
      +   "d": 4
        ]
      """
    )
    XCTAssertEqual(
      diff(["b": 1], ["a": 0, "b": 1]),
      """
        [
      +   "a": 0,
          "b": 1
        ]
      """
    )
    XCTAssertEqual(
      diff(["k": Point(x: 1, y: 1)], ["k": Point(x: 1, y: 2)]),
      """
        [
          "k": Point(
            x: 1,
      -     y: 1
      +     y: 2
          )
        ]
      """
    )
  }

  func testSetChange() {
    XCTAssertEqual(
      diff(Set(["a", "b"]), Set(["b", "c"])),
      """
        Set([
      -   "a",
          "b",
      +   "c"
        ])
      """
    )
  }

  func testOptionalNilToValue() {
    let none: Int? = nil
    XCTAssertEqual(diff(none, 5), "- nil\n+ 5")
    XCTAssertEqual(
      diff(Profile(name: "n", avatar: nil), Profile(name: "n", avatar: Point(x: 1, y: 2))),
      """
        Profile(
          name: "n",
      -   avatar: nil
      +   avatar: Point(
      +     x: 1,
      +     y: 2
      +   )
        )
      """
    )
  }

  func testRedactedField() {
    XCTAssertNil(diff(Login(user: "me", password: Secret(value: "a")), Login(user: "me", password: Secret(value: "b"))))
    XCTAssertEqual(
      diff(Login(user: "me", password: Secret(value: "a")), Login(user: "you", password: Secret(value: "b"))),
      """
        Login(
      -   user: "me",
      +   user: "you",
          password: "<redacted>"
        )
      """
    )
  }

  func testCollapsesLongRunsOfUnchangedFields() {
    var new = Settings()
    new.d = 40
    XCTAssertEqual(
      diff(Settings(), new),
      """
        Settings(
          … (3 unchanged)
      -   d: 4,
      +   d: 40,
          e: 5,
          f: 6
        )
      """
    )
    var last = Settings()
    last.f = 60
    XCTAssertEqual(
      diff(Settings(), last),
      """
        Settings(
          … (5 unchanged)
      -   f: 6
      +   f: 60
        )
      """
    )
  }

  func testLargeArraysFallBackToPositionalAlignment() {
    let old = Array(0..<1_200)
    var new = old.reversed().map { $0 }
    new[0] = -1
    let result = diff(old, new) ?? ""
    XCTAssertTrue(result.hasPrefix("  [\n-   [0]: 0,\n+   [0]: -1,\n-   [1]: 1,\n+   [1]: 1198,"))
    XCTAssertTrue(result.hasSuffix("\n  ]"))
  }
}

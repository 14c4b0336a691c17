import Foundation
import XCTest
@testable import Unidirectional

private struct Empty {}

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
  case named(id: Int)
  case pair(Int, String)
}

private struct Feature {
  enum Status {
    case ready
  }
}

private final class Node {
  var name: String
  var next: Node?

  init(name: String, next: Node? = nil) {
    self.name = name
    self.next = next
  }
}

private class Animal {
  var legs = 4
}

private final class Dog: Animal {
  var name = "Rex"
}

private struct Secret: CustomDumpRepresentable {
  var value: String
  var customDumpValue: Any { "<redacted>" }
}

private struct Login {
  var user: String
  var password: Secret
}

private struct IdentifiedList: CustomDumpRepresentable {
  var storage: [Int: String]
  var customDumpValue: Any { storage.keys.sorted().compactMap { storage[$0] } }
}

private struct Money: CustomDumpStringConvertible {
  var cents: Int
  var customDumpDescription: String { "$\(cents / 100).\(String(format: "%02d", cents % 100))" }
}

private struct Nest {
  var inner: [Nest]
}

final class DumpTests: XCTestCase {
  func testStruct() {
    XCTAssertEqual(customDump(Point(x: 1, y: 2)), "Point(\n  x: 1,\n  y: 2\n)")
  }

  func testEmptyStruct() {
    XCTAssertEqual(customDump(Empty()), "Empty()")
  }

  func testNestedStruct() {
    let line = Line(start: Point(x: 0, y: 0), end: Point(x: 3, y: 4))
    XCTAssertEqual(
      customDump(line),
      """
      Line(
        start: Point(
          x: 0,
          y: 0
        ),
        end: Point(
          x: 3,
          y: 4
        )
      )
      """
    )
  }

  func testNestedTypeName() {
    XCTAssertEqual(customDump(Feature.Status.ready), "Feature.Status.ready")
  }

  func testClassWithSuperclassFields() {
    XCTAssertEqual(customDump(Dog()), "Dog(\n  legs: 4,\n  name: \"Rex\"\n)")
  }

  func testClassCycle() {
    let first = Node(name: "a")
    let second = Node(name: "b", next: first)
    first.next = second
    XCTAssertEqual(
      customDump(first),
      """
      Node(
        name: "a",
        next: Node(
          name: "b",
          next: Node(↩︎)
        )
      )
      """
    )
  }

  func testSharedReferenceIsNotACycle() {
    let shared = Node(name: "s")
    XCTAssertEqual(
      customDump([shared, shared]),
      "[\n  [0]: Node(\n    name: \"s\",\n    next: nil\n  ),\n  [1]: Node(\n    name: \"s\",\n    next: nil\n  )\n]"
    )
  }

  func testDepthCap() {
    var nest = Nest(inner: [])
    for _ in 0..<100 { nest = Nest(inner: [nest]) }
    let lines = customDump(nest).split(separator: "\n")
    // 64 levels are rendered (32 `Nest`/array pairs plus the root), then `…`.
    XCTAssertEqual(lines.filter { $0.hasSuffix("inner: …") }.count, 1)
    XCTAssertFalse(lines.contains { $0.hasSuffix("inner: []") })
    XCTAssertEqual(lines.count, 131)
  }

  func testEnums() {
    XCTAssertEqual(customDump(Action.idle), "Action.idle")
    XCTAssertEqual(customDump(Action.loaded(3)), "Action.loaded(3)")
    XCTAssertEqual(customDump(Action.range(from: 1, to: 5)), "Action.range(from: 1, to: 5)")
    XCTAssertEqual(customDump(Action.named(id: 7)), "Action.named(id: 7)")
    XCTAssertEqual(customDump(Action.pair(1, "a")), "Action.pair(1, \"a\")")
    XCTAssertEqual(
      customDump(Action.point(Point(x: 1, y: 2))),
      "Action.point(\n  Point(\n    x: 1,\n    y: 2\n  )\n)"
    )
  }

  func testOptionals() {
    let none: Int? = nil
    let some: Int? = 5
    let nested: String?? = .some(.some("x"))
    XCTAssertEqual(customDump(none as Any), "nil")
    XCTAssertEqual(customDump(some as Any), "5")
    XCTAssertEqual(customDump(nested as Any), "\"x\"")
    XCTAssertEqual(customDump(Node(name: "n")), "Node(\n  name: \"n\",\n  next: nil\n)")
  }

  func testStringsAndCharacters() {
    XCTAssertEqual(customDump("a\"b"), #""a\"b""#)
    XCTAssertEqual(customDump("line1\nline2\ttab\\"), #""line1\nline2\ttab\\""#)
    XCTAssertEqual(customDump("bell\u{7}"), #""bell\u{7}""#)
    XCTAssertEqual(customDump("héllo 👋"), "\"héllo 👋\"")
    XCTAssertEqual(customDump(Character("c")), "\"c\"")
    XCTAssertEqual(customDump("abc".dropFirst()), "\"bc\"")
  }

  func testNumbersAndBools() {
    XCTAssertEqual(customDump(42), "42")
    XCTAssertEqual(customDump(-7 as Int8), "-7")
    XCTAssertEqual(customDump(UInt64.max), "18446744073709551615")
    XCTAssertEqual(customDump(1.5), "1.5")
    XCTAssertEqual(customDump(2 as Float), "2.0")
    XCTAssertEqual(customDump(true), "true")
    XCTAssertEqual(customDump(false), "false")
  }

  func testFoundationValues() throws {
    XCTAssertEqual(customDump(Duration.seconds(1.5)), "Duration(1.5 seconds)")
    XCTAssertEqual(customDump(Date(timeIntervalSince1970: 0)), "Date(1970-01-01T00:00:00.000Z)")
    let uuid = try XCTUnwrap(UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF"))
    XCTAssertEqual(customDump(uuid), "UUID(DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF)")
    let url = try XCTUnwrap(URL(string: "https://example.com/a?b=1"))
    XCTAssertEqual(customDump(url), "URL(https://example.com/a?b=1)")
    XCTAssertEqual(customDump(Data(repeating: 0, count: 12)), "Data(12 bytes)")
    XCTAssertEqual(customDump(Data([1])), "Data(1 byte)")
    XCTAssertEqual(customDump(Int.self), "Int.self")
  }

  func testArrays() {
    XCTAssertEqual(customDump([Int]()), "[]")
    XCTAssertEqual(customDump(["a", "b"]), "[\n  [0]: \"a\",\n  [1]: \"b\"\n]")
    XCTAssertEqual(
      customDump([[1], []]),
      "[\n  [0]: [\n    [0]: 1\n  ],\n  [1]: []\n]"
    )
  }

  func testSetsAreSortedByRendering() {
    XCTAssertEqual(customDump(Set<Int>()), "Set([])")
    XCTAssertEqual(customDump(Set(["b", "c", "a"])), "Set([\n  \"a\",\n  \"b\",\n  \"c\"\n])")
  }

  func testDictionariesAreSortedByKey() {
    XCTAssertEqual(customDump([String: Int]()), "[:]")
    XCTAssertEqual(customDump(["b": 2, "a": 1]), "[\n  \"a\": 1,\n  \"b\": 2\n]")
    XCTAssertEqual(
      customDump([1: Point(x: 1, y: 1)]),
      "[\n  1: Point(\n    x: 1,\n    y: 1\n  )\n]"
    )
  }

  func testAnyHashableKeysShowTheirBase() {
    let dictionary: [AnyHashable: Int] = ["k": 1]
    XCTAssertEqual(customDump(dictionary), "[\n  \"k\": 1\n]")
  }

  func testTuples() {
    XCTAssertEqual(customDump((x: 1, y: "a")), "(x: 1, y: \"a\")")
    XCTAssertEqual(customDump((1, 2)), "(1, 2)")
    XCTAssertEqual(customDump(()), "()")
    XCTAssertEqual(
      customDump((p: Point(x: 1, y: 2), n: 3)),
      "(\n  p: Point(\n    x: 1,\n    y: 2\n  ),\n  n: 3\n)"
    )
  }

  func testCustomDumpRepresentable() {
    XCTAssertEqual(
      customDump(Login(user: "me", password: Secret(value: "hunter2"))),
      "Login(\n  user: \"me\",\n  password: \"<redacted>\"\n)"
    )
    XCTAssertEqual(
      customDump(IdentifiedList(storage: [2: "b", 1: "a"])),
      "[\n  [0]: \"a\",\n  [1]: \"b\"\n]"
    )
  }

  func testCustomDumpStringConvertible() {
    XCTAssertEqual(customDump(Money(cents: 1050)), "$10.50")
    XCTAssertEqual(customDump([Money(cents: 5)]), "[\n  [0]: $0.05\n]")
  }

  func testTypeNameCleaning() {
    XCTAssertEqual(typeName(Int.self), "Int")
    XCTAssertEqual(typeName([Int?].self), "Array<Optional<Int>>")
    XCTAssertEqual(typeName(Feature.Status.self), "Feature.Status")
    XCTAssertEqual(typeName((a: Int, String).self), "(a: Int, String)")
    XCTAssertEqual(typeName(Result<Int, any Error>.self), "Result<Int, Error>")
    XCTAssertEqual(typeName(((Int) -> String).self), "(Int) -> String")
  }

  func testDeterministic() {
    let value = ["x": Set([3, 1, 2]), "a": Set([9])]
    XCTAssertEqual(customDump(value), customDump(value))
  }
}

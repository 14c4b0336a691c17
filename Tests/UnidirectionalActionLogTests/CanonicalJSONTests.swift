import Foundation
import XCTest

import Unidirectional
@testable import UnidirectionalActionLog

final class CanonicalJSONTests: XCTestCase {
  private struct Nested: Codable, Equatable {
    var zeta = 1
    var alpha = "a"
    var inner = Inner()
    var optional: Int?
    var list = [3, 1, 2]
  }

  private struct Inner: Codable, Equatable {
    var b = true
    var a = 0.5
  }

  private struct Special: Codable, Equatable {
    var data = Data([0, 1, 2, 250])
    var url = URL(string: "https://example.com/a?b=c")!
    var decimal = Decimal(string: "12.345")!
    var date = Date(timeIntervalSinceReferenceDate: 86_400.5)
    var uuid = UUID(sequenceNumber: 42)
    var tags: Set<String> = ["pear", "apple", "fig"]
    var byName: [String: Int] = ["b": 2, "a": 1, "c": 3]
    var byNumber: [Int: String] = [10: "ten", 2: "two"]
    var byID: [UUID: Int] = [UUID(sequenceNumber: 2): 2, UUID(sequenceNumber: 1): 1]
  }

  func testKeysAreSortedAndThereIsNoWhitespace() throws {
    XCTAssertEqual(
      text(try CanonicalJSONEncoder.encode(Nested())),
      #"{"alpha":"a","inner":{"a":0.5,"b":true},"list":[3,1,2],"zeta":1}"#)
  }

  func testStringsEscapeOnlyWhatJSONRequires() throws {
    XCTAssertEqual(
      text(try CanonicalJSONEncoder.encode("quote\" back\\ slash/ tab\t nl\n bell\u{7} é 🎉")),
      #""quote\" back\\ slash/ tab\t nl\n bell\u0007 é 🎉""#)
  }

  func testNumbers() throws {
    XCTAssertEqual(
      text(try CanonicalJSONEncoder.encode([Int.min, -1, 0, 9, 10, Int.max])),
      "[-9223372036854775808,-1,0,9,10,9223372036854775807]")
    XCTAssertEqual(text(try CanonicalJSONEncoder.encode([UInt64.max])), "[18446744073709551615]")
    XCTAssertEqual(
      text(try CanonicalJSONEncoder.encode([1.0, 0.1, 1e-5, 2.5e20, -0.0])), "[1.0,0.1,1e-05,2.5e+20,-0.0]")
    XCTAssertThrowsError(try CanonicalJSONEncoder.encode([Double.infinity]))
    XCTAssertThrowsError(try CanonicalJSONEncoder.encode(Float.nan))
  }

  func testUnorderedCollectionsAreWrittenInAStableOrder() throws {
    let json = text(try CanonicalJSONEncoder.encode(Special()))
    XCTAssertTrue(json.contains(#""tags":["apple","fig","pear"]"#), json)
    XCTAssertTrue(json.contains(#""byName":{"a":1,"b":2,"c":3}"#), json)
    XCTAssertTrue(json.contains(#""byNumber":{"10":"ten","2":"two"}"#), json)
    XCTAssertTrue(
      json.contains(
        #""byID":["00000000-0000-0000-0000-000000000001",1,"00000000-0000-0000-0000-000000000002",2]"#), json)
    // Hash order differs between sets built differently; the canonical bytes do not.
    var other = Special()
    other.tags = Set(["fig", "pear", "apple", "kiwi"])
    other.tags.remove("kiwi")
    XCTAssertEqual(try CanonicalJSONEncoder.encode(other), try CanonicalJSONEncoder.encode(Special()))
  }

  func testFoundationValuesAreWrittenTheWayJSONDecoderReadsThem() throws {
    let bytes = try CanonicalJSONEncoder.encode(Special())
    let json = text(bytes)
    XCTAssertTrue(json.contains(#""data":"AAEC+g==""#), json)
    XCTAssertTrue(json.contains(#""url":"https://example.com/a?b=c""#), json)
    XCTAssertTrue(json.contains(#""decimal":12.345"#), json)
    XCTAssertTrue(json.contains(#""date":86400.5"#), json)
    XCTAssertEqual(try JSONDecoder().decode(Special.self, from: Data(bytes)), Special())
    XCTAssertEqual(
      try JSONDecoder().decode(Nested.self, from: Data(try CanonicalJSONEncoder.encode(Nested()))), Nested())
  }

  func testSuperEncodersAndNestedContainers() throws {
    XCTAssertEqual(
      text(try CanonicalJSONEncoder.encode(Manual())), #"{"list":[1,{"x":2}],"nested":{"k":"v"},"super":{"s":1}}"#)
  }

  private struct Manual: Encodable {
    enum Keys: String, CodingKey { case nested, list, k, x, s }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
      try nested.encode("v", forKey: .k)
      var list = container.nestedUnkeyedContainer(forKey: .list)
      try list.encode(1)
      var element = list.nestedContainer(keyedBy: Keys.self)
      try element.encode(2, forKey: .x)
      var parent = container.superEncoder().container(keyedBy: Keys.self)
      try parent.encode(1, forKey: .s)
    }
  }

  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

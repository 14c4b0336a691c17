import Foundation
import Unidirectional
import UnidirectionalActionLog
import XCTest

final class ActionLogFingerprintTests: XCTestCase {
  private struct Pair: Codable { var a = 1; var b = "x" }
  private struct PairReordered: Codable { var b = "x"; var a = 1 }
  private struct Holder: Codable {
    var tags: Set<String>
    var scores: [String: Int]
    var byID: [UUID: Int]
    var list: [Int]
  }
  private enum Choice: Codable, Equatable { case none, some(Int), named(label: String) }

  // The definition, written out independently of the encoder.
  private func fnv(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return hash
  }
  private func le(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
  private func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
  private func entry(_ key: String, _ value: UInt64) -> UInt64 {
    mix(fnv(Array("k".utf8) + Array(key.utf8)) &+ 0x9e37_79b9_7f4a_7c15 &* value)
  }
  private func object(_ entries: [(String, UInt64)]) -> UInt64 {
    let sum = entries.reduce(UInt64(0)) { $0 &+ entry($1.0, $1.1) }
    return fnv(Array("{".utf8) + le(UInt64(entries.count)) + le(sum))
  }

  func testScalarsFollowTheDocumentedDefinition() throws {
    XCTAssertEqual(try ActionLogFingerprint(of: 5).value, fnv(Array("i".utf8) + le(5)))
    XCTAssertEqual(try ActionLogFingerprint(of: -1).value, fnv(Array("i".utf8) + le(UInt64.max)))
    XCTAssertEqual(try ActionLogFingerprint(of: UInt8(5)), try ActionLogFingerprint(of: 5))
    XCTAssertEqual(try ActionLogFingerprint(of: UInt64.max).value, fnv(Array("u".utf8) + le(UInt64.max)))
    XCTAssertEqual(try ActionLogFingerprint(of: "héllo").value, fnv(Array("shéllo".utf8)))
    XCTAssertEqual(try ActionLogFingerprint(of: true).value, fnv(Array("t".utf8)))
    XCTAssertEqual(try ActionLogFingerprint(of: 0.1).value, fnv(Array("r0.1".utf8)))
    XCTAssertEqual(try ActionLogFingerprint(of: Optional<Int>.none).value, fnv(Array("n".utf8)))
    XCTAssertEqual(
      try ActionLogFingerprint(of: [1, 2]).value,
      fnv(Array("[".utf8) + le(2) + le(fnv(Array("i".utf8) + le(1))) + le(fnv(Array("i".utf8) + le(2)))))
    XCTAssertThrowsError(try ActionLogFingerprint(of: Double.nan))
  }

  func testObjectsDoNotDependOnKeyOrder() throws {
    let expected = object([("a", fnv(Array("i".utf8) + le(1))), ("b", fnv(Array("sx".utf8)))])
    XCTAssertEqual(try ActionLogFingerprint(of: Pair()).value, expected)
    XCTAssertEqual(try ActionLogFingerprint(of: PairReordered()).value, expected)
    XCTAssertNotEqual(try ActionLogFingerprint(of: Pair(a: 2)), try ActionLogFingerprint(of: Pair()))
    // Swapping values between keys changes the fingerprint: values are bound to their keys.
    struct Two: Codable { var a: Int; var b: Int }
    XCTAssertNotEqual(try ActionLogFingerprint(of: Two(a: 1, b: 2)), try ActionLogFingerprint(of: Two(a: 2, b: 1)))
  }

  func testUnorderedCollectionsDoNotDependOnHashOrder() throws {
    let ids = (0..<50).map { UUID(sequenceNumber: UInt64($0)) }
    var first = Holder(tags: [], scores: [:], byID: [:], list: [1, 2, 3])
    var second = first
    for (index, id) in ids.enumerated() {
      first.tags.insert("tag\(index)")
      first.scores["k\(index)"] = index
      first.byID[id] = index
    }
    for (index, id) in ids.enumerated().reversed() {
      second.byID[id] = index
      second.scores["k\(index)"] = index
      second.tags.insert("tag\(index)")
    }
    XCTAssertEqual(try ActionLogFingerprint(of: first), try ActionLogFingerprint(of: second))
    second.list = [3, 2, 1]
    XCTAssertNotEqual(try ActionLogFingerprint(of: first), try ActionLogFingerprint(of: second), "arrays keep order")
  }

  func testEnumsWithPayloadsAreDistinguished() throws {
    let fingerprints = try [Choice.none, .some(1), .some(2), .named(label: "1")].map(ActionLogFingerprint.init(of:))
    XCTAssertEqual(Set(fingerprints).count, 4)
    XCTAssertEqual(try ActionLogFingerprint(of: Choice.some(1)), try ActionLogFingerprint(of: Choice.some(1)))
  }

  /// Found by `Scripts/fuzz action-log-replay` (LeakSanitizer): an encoder made for a nested container kept its
  /// parent, which kept it, so every fingerprint of a value with a nested container (an enum with a payload, as
  /// synthesized `Codable` writes it) leaked both — on every recorded action of such a state.
  func testFingerprintingANestedContainerKeepsNoEncoderAlive() throws {
    final class Encoders: @unchecked Sendable {
      weak var top: AnyObject?
      weak var child: AnyObject?
    }
    struct Nested: Encodable {
      enum Keys: CodingKey { case a, b }
      let seen: Encoders
      func encode(to encoder: any Encoder) throws {
        seen.top = encoder as AnyObject
        var container = encoder.container(keyedBy: Keys.self)
        var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
        try nested.encode(1, forKey: .b)
        seen.child = container.superEncoder(forKey: .b) as AnyObject
      }
    }
    let seen = Encoders()
    _ = try ActionLogFingerprint(of: Nested(seen: seen))
    XCTAssertNil(seen.top, "the fingerprint's encoder outlived it")
    XCTAssertNil(seen.child, "a nested encoder outlived the fingerprint")
    _ = try ActionLogFingerprint(of: Choice.named(label: "x"))
  }

  func testSecretsAreHashedRedacted() throws {
    struct Session: Codable { var token: Redacted<String> }
    XCTAssertEqual(
      try ActionLogFingerprint(of: Session(token: Redacted("one"))),
      try ActionLogFingerprint(of: Session(token: Redacted("two"))))
    XCTAssertEqual(
      try ActionLogFingerprint(of: Redacted("one")).value, fnv(Array("s<redacted>".utf8)))
  }

  func testHexRoundTrip() throws {
    let fingerprint = try ActionLogFingerprint(of: Pair())
    XCTAssertEqual(fingerprint.description.count, 16)
    XCTAssertEqual(ActionLogFingerprint(hex: fingerprint.description), fingerprint)
    XCTAssertEqual(ActionLogFingerprint(hex: "00000000000000ff")?.value, 255)
    for invalid in ["", "xyz", "00000000000000FF", "000000000000000000", "0000000000000 0f"] {
      XCTAssertNil(ActionLogFingerprint(hex: invalid), invalid)
    }
  }
}

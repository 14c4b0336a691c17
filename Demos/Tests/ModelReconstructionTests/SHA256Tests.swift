import Foundation
import ModelReconstruction
import XCTest

final class SHA256Tests: XCTestCase {
  func testKnownVectorsFromFIPS180() {
    XCTAssertEqual(
      SHA256.hash(Data()).hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    XCTAssertEqual(
      SHA256.hash(Data("abc".utf8)).hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    XCTAssertEqual(
      SHA256.hash(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hex,
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    XCTAssertEqual(
      SHA256.hash(
        Data(
          ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
            + "nopqrstu").utf8)
      ).hex,
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    XCTAssertEqual(
      SHA256.hash(Data(repeating: UInt8(ascii: "a"), count: 1_000_000)).hex,
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  func testPaddingBoundaries() {
    // Lengths around the 55/56/64-byte padding edges, checked against digests from Python's hashlib.
    let expected: [Int: String] = [
      55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
      56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
      63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
      64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
      65: "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0",
    ]
    for (length, digest) in expected {
      XCTAssertEqual(SHA256.hash(Data(repeating: UInt8(ascii: "a"), count: length)).hex, digest, "length \(length)")
    }
  }

  func testIncrementalUpdatesGiveTheSameDigestForAnySplit() {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let whole = SHA256.hash(Data(bytes))
    for chunkSize in [1, 3, 63, 64, 65, 127, 1_000, 4_096] {
      var hasher = SHA256()
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + chunkSize)
        hasher.update(Array(bytes[start..<end]))
        start = end
      }
      XCTAssertEqual(hasher.finalize(), whole, "chunks of \(chunkSize)")
    }
  }

  func testHashingAFileMatchesHashingItsBytes() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(UUID().uuidString).bin")
    defer { try? FileManager.default.removeItem(at: url) }
    let data = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
    try data.write(to: url)
    XCTAssertEqual(try SHA256.hash(fileAt: url), SHA256.hash(data))
    XCTAssertThrowsError(try SHA256.hash(fileAt: url.appendingPathExtension("missing")))
  }
}

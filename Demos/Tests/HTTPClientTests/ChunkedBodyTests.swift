import Foundation
import XCTest

@testable import HTTPClient

/// The chunked body decoding of ``HTTPResponseParser`` as the socket engine drives it: bytes in reads of any size,
/// the body asked for after every read.
final class ChunkedBodyTests: XCTestCase {
  private static let head = Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)

  /// Feeds `wire` in pieces cut at `cuts`, asking for the body after each piece.
  private func decode(_ wire: Data, cuttingAt cuts: [Int], max: Int = 1 << 20) throws -> (
    HTTPResponseParser, HTTPResponseParser.Body
  ) {
    var parser = HTTPResponseParser(requestMethod: "GET", maxBodyBytes: max)
    var body = HTTPResponseParser.Body.incomplete
    var start = 0
    for end in cuts + [wire.count] where end >= start {
      try parser.consume(wire[start..<end])
      body = try parser.body(atEndOfStream: false)
      start = end
    }
    return (parser, body)
  }

  /// Before, every read decoded the whole body again from its first byte: 8 MiB of 1-byte chunks took ~5.6 s of
  /// CPU per response. Each byte is now looked at once, however the reads cut the body.
  func testEachByteOfAChunkedBodyIsScannedOnceHoweverSmallTheReads() throws {
    var wire = Self.head
    var expected = Data()
    for index in 0..<3_000 {
      let byte = UInt8(ascii: "a") + UInt8(index % 26)
      expected.append(byte)
      wire.append(contentsOf: Array("1\r\n".utf8) + [byte] + Array("\r\n".utf8))
    }
    wire.append(contentsOf: "0\r\n\r\n".utf8)
    let (parser, body) = try decode(wire, cuttingAt: Array(stride(from: 0, to: wire.count, by: 16)))
    XCTAssertEqual(body, .complete(expected))
    XCTAssertEqual(parser.chunkedBytesScanned, wire.count - Self.head.count, "each byte of the body once")
  }

  /// Every place a read can end — in a size, its extension, a CRLF, the data, the trailers — gives the same body,
  /// and two cuts anywhere too.
  func testABodyCutAtEveryByteDecodesTheSame() throws {
    let body = "3;name=\"x;y\"\r\nabc\r\nA\r\n0123456789\r\n1 \r\n\n\r\n0\r\nTrailer: 1\r\nOther: \r\n\r\n"
    let wire = Self.head + Data(body.utf8)
    let expected = HTTPResponseParser.Body.complete(Data("abc0123456789\n".utf8))
    XCTAssertEqual(try decode(wire, cuttingAt: []).1, expected)
    for first in 0...wire.count {
      XCTAssertEqual(try decode(wire, cuttingAt: [first]).1, expected, "cut at \(first)")
      for second in stride(from: max(first, Self.head.count), through: wire.count, by: 1) {
        XCTAssertEqual(try decode(wire, cuttingAt: [first, second]).1, expected, "cut at \(first), \(second)")
      }
    }
    XCTAssertEqual(try decode(wire, cuttingAt: Array(0..<wire.count)).1, expected, "a byte at a time")
    for end in Self.head.count..<wire.count {
      XCTAssertEqual(try decode(wire.prefix(end), cuttingAt: []).1, .incomplete, "only \(end) bytes")
    }
  }

  /// Bad framing is found wherever the reads cut it; a body over the limit is refused.
  func testBadFramingAndOversizedBodiesAreTypedErrorsWhereverTheReadsEnd() throws {
    for (bad, reason) in [
      ("3\r\nabcX\r\n0\r\n\r\n", "a chunk without its CRLF"), ("3\r\nabc\r\r\n0\r\n\r\n", "a chunk without its CRLF"),
      ("g\r\n", "an invalid chunk size"), ("\r\n", "an invalid chunk size"),
      ("1000000000000000\r\n", "an invalid chunk size"),
      ("9\r\n", "the response body is larger than 8 bytes"),
      ("5\r\nabcde\r\n4\r\n", "the response body is larger than 8 bytes"),
    ] {
      let wire = Self.head + Data(bad.utf8)
      for cut in Self.head.count...wire.count {
        XCTAssertThrowsError(try decode(wire, cuttingAt: [cut], max: 8), "\(bad.debugDescription) cut at \(cut)") {
          XCTAssertEqual($0 as? HTTPError, .invalidResponse(reason), bad.debugDescription)
        }
      }
    }
  }
}

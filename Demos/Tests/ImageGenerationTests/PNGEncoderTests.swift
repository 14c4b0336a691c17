import Foundation
import ImageGeneration
import Images
import XCTest

final class PNGEncoderTests: XCTestCase {
  func testChecksumsMatchTheirReferenceValues() {
    XCTAssertEqual(PNGEncoder.crc32(Array("123456789".utf8)), 0xCBF4_3926)
    XCTAssertEqual(PNGEncoder.crc32([UInt8]()), 0)
    XCTAssertEqual(PNGEncoder.adler32(Array("Wikipedia".utf8)), 0x11E6_0398)
    XCTAssertEqual(PNGEncoder.adler32([]), 1)
    // Long enough to need the periodic modulo: 1 MiB of 0xFF.
    XCTAssertEqual(PNGEncoder.adler32([UInt8](repeating: 0xFF, count: 1 << 20)), Self.slowAdler32(count: 1 << 20))
  }

  func testEncodedPixelsDecodeBackExactly() throws {
    let (width, height) = (5, 3)
    let pixels = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    let png = try PNGEncoder.encode(width: width, height: height, rgb: pixels)
    let decoded = try GeneratedPNGReader(png)
    XCTAssertEqual(decoded.chunkTypes, ["IHDR", "IDAT", "IEND"])
    XCTAssertEqual(decoded.width, 5)
    XCTAssertEqual(decoded.height, 3)
    XCTAssertEqual(decoded.bitDepth, 8)
    XCTAssertEqual(decoded.colorType, 2)
    XCTAssertEqual(decoded.rgb, pixels)
    XCTAssertEqual(ImageFormat(detecting: png), .png)
  }

  func testLargeImagesSpanSeveralStoredBlocks() throws {
    // 200×200 RGB is 120,200 bytes of scanlines: two stored blocks of at most 65,535 bytes.
    let pixels = [UInt8](repeating: 0x5A, count: 200 * 200 * 3)
    let decoded = try GeneratedPNGReader(try PNGEncoder.encode(width: 200, height: 200, rgb: pixels))
    XCTAssertEqual(decoded.storedBlockLengths, [65_535, 120_200 - 65_535])
    XCTAssertEqual(decoded.rgb, pixels)
  }

  func testInvalidInputIsATypedError() {
    XCTAssertThrowsError(try PNGEncoder.encode(width: 0, height: 3, rgb: [])) { error in
      XCTAssertEqual(error as? PNGEncoder.Failure, .invalidDimensions(width: 0, height: 3))
    }
    XCTAssertThrowsError(try PNGEncoder.encode(width: 9_000, height: 1, rgb: [])) { error in
      XCTAssertEqual(error as? PNGEncoder.Failure, .invalidDimensions(width: 9_000, height: 1))
    }
    XCTAssertThrowsError(try PNGEncoder.encode(width: 2, height: 2, rgb: [1, 2, 3])) { error in
      XCTAssertEqual(error as? PNGEncoder.Failure, .pixelCountMismatch(expected: 12, actual: 3))
      XCTAssertEqual("\(error)", "Expected 12 bytes of RGB pixels, got 3.")
    }
  }

  func testPreviewImagesAreDeterministicGradientsThatDependOnThePrompt() throws {
    let first = try PreviewImageRenderer.png(prompt: "a red kite", index: 0, width: 64, height: 48)
    XCTAssertEqual(first, try PreviewImageRenderer.png(prompt: "a red kite", index: 0, width: 64, height: 48))
    XCTAssertNotEqual(first, try PreviewImageRenderer.png(prompt: "a blue kite", index: 0, width: 64, height: 48))
    XCTAssertNotEqual(first, try PreviewImageRenderer.png(prompt: "a red kite", index: 1, width: 64, height: 48))

    let decoded = try GeneratedPNGReader(first)
    XCTAssertEqual([decoded.width, decoded.height], [64, 48])
    // A diagonal gradient: the corners differ, and pixels on the same anti-diagonal are equal.
    XCTAssertNotEqual(decoded.pixel(x: 0, y: 0), decoded.pixel(x: 63, y: 47))
    XCTAssertEqual(decoded.pixel(x: 10, y: 5), decoded.pixel(x: 5, y: 10))
  }

  func testThePreviewClientReturnsOneRealPNGPerSample() async throws {
    let images = try await ImageGenerationClient.preview.generate(
      ImageGenerationRequest(prompt: "  a lighthouse  ", width: 96, height: 64, samples: 3))
    XCTAssertEqual(images.count, 3)
    XCTAssertEqual(Set(images.map(\.data)).count, 3)
    for (index, image) in images.enumerated() {
      XCTAssertEqual(image.format, .png)
      XCTAssertEqual(image.seed, PreviewImageRenderer.seed(prompt: "a lighthouse", index: index))
      let decoded = try GeneratedPNGReader(image.data)
      XCTAssertEqual([decoded.width, decoded.height], [96, 64])
    }
    let again = try await ImageGenerationClient.preview.generate(
      ImageGenerationRequest(prompt: "a lighthouse", width: 96, height: 64, samples: 3))
    XCTAssertEqual(again, images)
  }

  func testThePreviewClientRefusesWhatAServiceWouldRefuse() async {
    for (request, message) in [
      (ImageGenerationRequest(prompt: "  "), "The prompt is empty."),
      (ImageGenerationRequest(prompt: "kite", samples: 9), "The preview generates 1 to 8 images, not 9."),
      (ImageGenerationRequest(prompt: "kite", width: 0), "The preview draws 1 to 2048 pixels a side, not 0x512."),
    ] {
      do {
        _ = try await ImageGenerationClient.preview.generate(request)
        XCTFail("expected \(message)")
      } catch {
        XCTAssertEqual(error as? ImageGenerationError, .invalidRequest(message))
      }
    }
  }

  func testImageFormatsAreRecognisedByTheirMagicBytes() {
    XCTAssertEqual(ImageFormat(detecting: Data(PNGEncoder.signature + [0, 0])), .png)
    XCTAssertEqual(ImageFormat(detecting: Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])), .jpeg)
    XCTAssertEqual(ImageFormat(detecting: Data(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8))), .webp)
    XCTAssertNil(ImageFormat(detecting: Data(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVEfmt ".utf8))))
    XCTAssertNil(ImageFormat(detecting: Data("GIF89a".utf8)))
    XCTAssertNil(ImageFormat(detecting: Data("<html>".utf8)))
    XCTAssertNil(ImageFormat(detecting: Data([0x89, 0x50])))
    XCTAssertNil(ImageFormat(detecting: Data()))
    XCTAssertEqual(ImageFormat.jpeg.fileExtension, "jpg")
    XCTAssertEqual(ImageFormat.webp.mimeType, "image/webp")
  }

  private static func slowAdler32(count: Int) -> UInt32 {
    var a: UInt64 = 1
    var b: UInt64 = 0
    for _ in 0..<count {
      a = (a + 0xFF) % 65_521
      b = (b + a) % 65_521
    }
    return UInt32(b << 16 | a)
  }
}

/// A strict reader for the PNGs `PNGEncoder` writes: checks the signature, every chunk's CRC-32, the zlib header,
/// each stored block's LEN/NLEN, the Adler-32 trailer and the filter bytes, and returns the pixels.
struct GeneratedPNGReader {
  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  var chunkTypes: [String] = []
  var width = 0
  var height = 0
  var bitDepth = 0
  var colorType = 0
  var storedBlockLengths: [Int] = []
  var rgb: [UInt8] = []

  init(_ data: Data) throws {
    let bytes = [UInt8](data)
    guard bytes.starts(with: PNGEncoder.signature) else { throw Invalid(description: "no PNG signature") }
    var offset = 8
    var idat: [UInt8] = []
    func uint32(_ at: Int) throws -> Int {
      guard at + 4 <= bytes.count else { throw Invalid(description: "truncated at \(at)") }
      return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
    while offset < bytes.count {
      let length = try uint32(offset)
      guard offset + 12 + length <= bytes.count else { throw Invalid(description: "chunk overruns the file") }
      let typeAndData = Array(bytes[(offset + 4)..<(offset + 8 + length)])
      let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
      let crc = try uint32(offset + 8 + length)
      guard UInt32(crc) == PNGEncoder.crc32(typeAndData) else { throw Invalid(description: "bad CRC in \(type)") }
      let body = Array(typeAndData.dropFirst(4))
      chunkTypes.append(type)
      if type == "IHDR" {
        width = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
        height = Int(body[4]) << 24 | Int(body[5]) << 16 | Int(body[6]) << 8 | Int(body[7])
        bitDepth = Int(body[8])
        colorType = Int(body[9])
      } else if type == "IDAT" {
        idat += body
      }
      offset += 12 + length
    }
    guard idat.count >= 6, idat[0] == 0x78, (Int(idat[0]) << 8 | Int(idat[1])) % 31 == 0 else {
      throw Invalid(description: "bad zlib header")
    }
    var position = 2
    var raw: [UInt8] = []
    while true {
      let header = idat[position]
      guard header & 0b110 == 0 else { throw Invalid(description: "not a stored block") }
      let length = Int(idat[position + 1]) | Int(idat[position + 2]) << 8
      let complement: Int = Int(idat[position + 3]) | Int(idat[position + 4]) << 8
      guard length ^ complement == 0xFFFF else { throw Invalid(description: "LEN and NLEN disagree") }
      storedBlockLengths.append(length)
      let start = position + 5
      raw.append(contentsOf: idat[start..<(start + length)])
      position += 5 + length
      if header & 1 == 1 { break }
    }
    let adler =
      UInt32(idat[position]) << 24 | UInt32(idat[position + 1]) << 16 | UInt32(idat[position + 2]) << 8
      | UInt32(idat[position + 3])
    guard adler == PNGEncoder.adler32(raw) else { throw Invalid(description: "bad Adler-32") }
    let rowLength = width * 3
    guard raw.count == (rowLength + 1) * height else { throw Invalid(description: "wrong amount of image data") }
    for row in 0..<height {
      let start = row * (rowLength + 1)
      guard raw[start] == 0 else { throw Invalid(description: "unexpected filter type") }
      rgb += raw[(start + 1)...(start + rowLength)]
    }
  }

  func pixel(x: Int, y: Int) -> [UInt8] {
    let offset = (y * width + x) * 3
    return Array(rgb[offset..<(offset + 3)])
  }
}

import Foundation

/// Encodes 8-bit RGB pixels as a PNG file with no dependencies: a zlib stream of stored (uncompressed) deflate
/// blocks, with the CRC-32 of every chunk and the Adler-32 of the image data.
///
/// ```swift
/// let red = [UInt8](repeating: 0, count: 2 * 2 * 3).enumerated().map { $0.offset % 3 == 0 ? 255 : 0 }
/// let png = try PNGEncoder.encode(width: 2, height: 2, rgb: red)   // a 2×2 red PNG any viewer opens
/// ```
public enum PNGEncoder {
  /// Why pixels could not be encoded.
  ///
  /// ```swift
  /// try PNGEncoder.encode(width: 2, height: 2, rgb: [1, 2, 3])   // throws .pixelCountMismatch(expected: 12, actual: 3)
  /// ```
  public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Width or height is below 1 or above ``maxDimension``.
    case invalidDimensions(width: Int, height: Int)
    /// The pixel buffer does not hold width × height × 3 bytes.
    case pixelCountMismatch(expected: Int, actual: Int)

    /// What was wrong with the input.
    public var description: String {
      switch self {
      case let .invalidDimensions(width, height):
        return "A PNG must be 1 to \(PNGEncoder.maxDimension) pixels a side, not \(width)x\(height)."
      case let .pixelCountMismatch(expected, actual):
        return "Expected \(expected) bytes of RGB pixels, got \(actual)."
      }
    }
  }

  /// The largest width or height encoded (keeps an uncompressed file below 200 MB).
  public static let maxDimension = 8_192

  /// The 8-byte PNG file signature.
  public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A PNG of `width`×`height` pixels from `rgb`: rows top to bottom, 3 bytes (red, green, blue) per pixel.
  public static func encode(width: Int, height: Int, rgb: [UInt8]) throws(Failure) -> Data {
    guard (1...maxDimension).contains(width), (1...maxDimension).contains(height) else {
      throw .invalidDimensions(width: width, height: height)
    }
    let rowLength = width * 3
    guard rgb.count == rowLength * height else {
      throw .pixelCountMismatch(expected: rowLength * height, actual: rgb.count)
    }

    // Scanlines, each preceded by filter type 0 (none).
    var raw = [UInt8]()
    raw.reserveCapacity((rowLength + 1) * height)
    for row in 0..<height {
      raw.append(0)
      raw.append(contentsOf: rgb[(row * rowLength)..<((row + 1) * rowLength)])
    }

    var header = [UInt8]()
    appendBigEndian(UInt32(width), to: &header)
    appendBigEndian(UInt32(height), to: &header)
    header += [8, 2, 0, 0, 0]  // bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace

    var file = signature
    file.reserveCapacity(raw.count + raw.count / 65_535 * 5 + 64)
    appendChunk("IHDR", header, to: &file)
    appendChunk("IDAT", zlibStored(raw), to: &file)
    appendChunk("IEND", [], to: &file)
    return Data(file)
  }

  /// `bytes` as a zlib stream of stored deflate blocks (at most 65,535 bytes each) ending with their Adler-32.
  public static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
    var stream: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, no preset dictionary; 0x7801 is divisible by 31
    stream.reserveCapacity(bytes.count + bytes.count / 65_535 * 5 + 16)
    var offset = 0
    repeat {
      let length = min(65_535, bytes.count - offset)
      let isFinal = offset + length == bytes.count
      stream.append(isFinal ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
      let complement: Int = ~length
      stream.append(UInt8(truncatingIfNeeded: length))
      stream.append(UInt8(truncatingIfNeeded: length >> 8))
      stream.append(UInt8(truncatingIfNeeded: complement))
      stream.append(UInt8(truncatingIfNeeded: complement >> 8))
      stream.append(contentsOf: bytes[offset..<(offset + length)])
      offset += length
    } while offset < bytes.count
    appendBigEndian(adler32(bytes), to: &stream)
    return stream
  }

  /// The CRC-32 (ISO-HDLC, as in PNG and zlib) of `bytes`.
  public static func crc32<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// The Adler-32 checksum of `bytes`, as in a zlib stream's trailer.
  public static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    bytes.withUnsafeBufferPointer { buffer in
      // 5552 is the most bytes that can be summed before b could overflow 32 bits.
      var index = 0
      while index < buffer.count {
        let end = min(index + 5_552, buffer.count)
        while index < end {
          a &+= UInt32(buffer[index])
          b &+= a
          index += 1
        }
        a %= 65_521
        b %= 65_521
      }
    }
    return (b << 16) | a
  }

  private static let crcTable: [UInt32] = (0..<256).map { value in
    var crc = UInt32(value)
    for _ in 0..<8 {
      crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1
    }
    return crc
  }

  private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
    let typeBytes = Array(type.utf8)
    appendBigEndian(UInt32(data.count), to: &file)
    file += typeBytes
    file += data
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in typeBytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    crcTable.withUnsafeBufferPointer { table in
      data.withUnsafeBufferPointer { buffer in
        for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
      }
    }
    appendBigEndian(crc ^ 0xFFFF_FFFF, to: &file)
  }

  private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
    bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }
}

import Foundation

/// Decodes a `Transfer-Encoding: chunked` body (RFC 9112 §7.1) as its bytes arrive, keeping its place and the body
/// decoded so far between reads: each byte is looked at once, so a body of many small chunks read in many small
/// pieces costs time in proportion to its length. (Decoding again from the first byte after every read was
/// quadratic: ~5.6 s of CPU for an 8 MiB body of 1-byte chunks.)
///
/// ```swift
/// var decoder = ChunkedBodyDecoder(maxBodyBytes: 1 << 20)
/// try decoder.feed(Data("4\r\nWiki\r\n0\r\n".utf8))
/// decoder.body                  // nil: the trailer section has not ended
/// try decoder.feed(Data("\r\n".utf8))
/// decoder.body                  // Data("Wiki".utf8)
/// ```
struct ChunkedBodyDecoder {
  /// Where the next byte belongs.
  private enum Place: Equatable {
    /// A chunk-size line (size and extensions), up to its LF.
    case sizeLine
    /// A chunk's data, with this many bytes to go.
    case data(remaining: Int)
    /// The CRLF after a chunk's data (a bare LF is accepted, as at the end of every line).
    case dataEnd(sawCR: Bool)
    /// The trailer section, a line at a time, up to an empty line (nothing, or just a CR, before the LF).
    case trailers(line: LineStart)
    /// The body is complete; later bytes are not looked at.
    case done
  }

  /// How much of a trailer line has been seen.
  private enum LineStart: Equatable {
    case empty
    case carriageReturn
    case text
  }

  let maxBodyBytes: Int
  private var place = Place.sizeLine
  private var decoded = Data()
  /// The current chunk-size line's bytes so far.
  private var sizeLine: [UInt8] = []
  /// The bytes looked at so far: each one fed before the body's end, once (tests hold the decoding to that).
  private(set) var scannedBytes = 0

  init(maxBodyBytes: Int) {
    self.maxBodyBytes = maxBodyBytes
  }

  /// The decoded body once the last chunk and the trailer section are in, else nil.
  var body: Data? { place == .done ? decoded : nil }

  /// Decodes `bytes`, the body's next ones; throws on invalid framing or a body larger than `maxBodyBytes`.
  mutating func feed(_ bytes: Data) throws {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      switch place {
      case .sizeLine:
        let newline = bytes[index...].firstIndex(of: 0x0A)
        let end = newline ?? bytes.endIndex
        sizeLine.append(contentsOf: bytes[index..<end])
        scannedBytes += bytes.distance(from: index, to: end)
        index = end
        guard let newline else { return }
        index = bytes.index(after: newline)
        scannedBytes += 1
        let size = try Self.chunkSize(in: sizeLine)
        sizeLine.removeAll(keepingCapacity: true)
        if size == 0 {
          place = .trailers(line: .empty)
        } else {
          guard size <= maxBodyBytes - decoded.count else {
            throw HTTPError.invalidResponse("the response body is larger than \(maxBodyBytes) bytes")
          }
          place = .data(remaining: size)
        }
      case let .data(remaining):
        let count = min(remaining, bytes.distance(from: index, to: bytes.endIndex))
        let end = bytes.index(index, offsetBy: count)
        decoded.append(contentsOf: bytes[index..<end])
        scannedBytes += count
        index = end
        place = count == remaining ? .dataEnd(sawCR: false) : .data(remaining: remaining - count)
      case let .dataEnd(sawCR):
        let byte = bytes[index]
        index = bytes.index(after: index)
        scannedBytes += 1
        if byte == 0x0A {
          place = .sizeLine
        } else if byte == 0x0D, !sawCR {
          place = .dataEnd(sawCR: true)
        } else {
          throw HTTPError.invalidResponse("a chunk without its CRLF")
        }
      case let .trailers(line):
        let byte = bytes[index]
        index = bytes.index(after: index)
        scannedBytes += 1
        switch (byte, line) {
        case (0x0A, .text): place = .trailers(line: .empty)
        case (0x0A, _): place = .done
        case (0x0D, .empty): place = .trailers(line: .carriageReturn)
        default: place = .trailers(line: .text)
        }
      case .done:
        return
      }
    }
  }

  /// The size a chunk-size line gives: 1 to 15 hex digits, then any extensions after `;`.
  private static func chunkSize(in line: [UInt8]) throws -> Int {
    let bytes = line.last == 0x0D ? line.dropLast() : line[...]
    let text = String(decoding: bytes, as: UTF8.self)
    let hex = text.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
    // Hex digits only: `Int(_:radix:)` also takes a sign, and a negative size would count the body backwards.
    guard let hex, !hex.isEmpty, hex.count <= 15, hex.allSatisfy(\.isASCIIHexDigit), let size = Int(hex, radix: 16)
    else {
      throw HTTPError.invalidResponse("an invalid chunk size")
    }
    return size
  }
}

extension Character {
  fileprivate var isASCIIHexDigit: Bool {
    ("0"..."9").contains(self) || ("a"..."f").contains(self) || ("A"..."F").contains(self)
  }
}

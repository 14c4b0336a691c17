/// Walks a JPEG's markers from SOI to the start of the scan (SOS), keeping the first APP1 `Exif` segment and the
/// first frame header (SOFn); every other segment is skipped by its length, unread.
///
/// Stops at SOS or EOI, which is where metadata ends: the compressed image after it is never read. At most
/// ``maximumSegments`` markers are walked.
///
/// ```swift
/// var window = ByteWindow(PhotoBytes(bytes))
/// let segments = try JPEGSegmentReader.read(&window)
/// segments.width   // from SOF0
/// ```
enum JPEGSegmentReader {
  /// What the walk found.
  struct Segments {
    /// The APP1 segment's bytes after `Exif\0\0`: a TIFF structure (a slice of the bytes read, not a copy).
    var exif: ArraySlice<UInt8>?
    var width: Int?
    var height: Int?
  }

  /// More markers than any real JPEG has before its scan; a file with more is refused rather than walked forever.
  static let maximumSegments = 4_096

  static func read<Source>(_ window: inout ByteWindow<Source>) throws(PhotoAnalysisError) -> Segments {
    var segments = Segments()
    var foundFrame = false
    var position = 2  // after SOI
    for _ in 0..<maximumSegments {
      let marker = try window.bytes(at: position, count: 2)
      guard marker.count == 2 else {
        guard foundFrame else {
          throw .metadataExtractionFailed("the JPEG ends at byte \(position), before its frame header")
        }
        return segments
      }
      guard marker[marker.startIndex] == 0xFF else {
        guard foundFrame else {
          throw .metadataExtractionFailed("expected a JPEG marker at byte \(position), found garbage")
        }
        return segments
      }
      let code = marker[marker.startIndex + 1]
      switch code {
      case 0xFF:  // a fill byte before the marker
        position += 1
        continue
      case 0x01, 0xD0...0xD7:  // markers without a length
        position += 2
        continue
      case 0xD9, 0xDA:  // EOI, SOS: the metadata is behind us
        guard foundFrame else {
          throw .metadataExtractionFailed("the JPEG reaches its image data at byte \(position) without a frame header")
        }
        return segments
      case 0x00, 0xD8:
        throw .metadataExtractionFailed("unexpected JPEG marker 0xFF\(hex(code)) at byte \(position)")
      default:
        break
      }
      guard let length = try window.uint16(at: position + 2) else {
        guard foundFrame else {
          throw .metadataExtractionFailed("the JPEG ends inside the segment at byte \(position)")
        }
        return segments
      }
      guard length >= 2 else {
        throw .metadataExtractionFailed("the JPEG segment 0xFF\(hex(code)) at byte \(position) has length \(length)")
      }
      let body = position + 4
      let bodyLength = length - 2
      if code == 0xE1, segments.exif == nil, bodyLength >= 6 {
        let signature = try window.bytes(at: body, count: 6)
        if signature.elementsEqual([0x45, 0x78, 0x69, 0x66, 0x00, 0x00]) {
          // A segment cut short by the end of the file keeps what is there: the TIFF reader checks every offset.
          segments.exif = try window.bytes(at: body + 6, count: bodyLength - 6)
        }
      } else if isFrameHeader(code), !foundFrame {
        foundFrame = true
        let header = try window.bytes(at: body, count: 5)
        if header.count == 5 {
          let start = header.startIndex
          let height = Int(header[start + 1]) << 8 | Int(header[start + 2])
          let width = Int(header[start + 3]) << 8 | Int(header[start + 4])
          segments.height = height > 0 ? height : nil
          segments.width = width > 0 ? width : nil
        }
      }
      position = body + bodyLength
    }
    throw .metadataExtractionFailed("the JPEG has more than \(maximumSegments) markers before its image data")
  }

  /// SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
  private static func isFrameHeader(_ code: UInt8) -> Bool {
    (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
  }
}

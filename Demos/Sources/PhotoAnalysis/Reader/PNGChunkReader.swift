/// Walks a PNG's chunks from `IHDR` to `IEND`, keeping the pixel size and the first `eXIf` chunk; every other
/// chunk is skipped by its length, unread. The image data is never read.
///
/// The walk goes on past the image data when no `eXIf` came before it: PNG 1.5 asked for `eXIf` before `IDAT`, but
/// writers such as ImageMagick put it after, and ExifTool reads it there. Once an `eXIf` is found the walk stops.
///
/// ```swift
/// var window = ByteWindow(PhotoBytes(bytes))
/// let chunks = try PNGChunkReader.read(&window)
/// chunks.exif   // the TIFF structure, or nil
/// ```
enum PNGChunkReader {
  /// What the walk found.
  struct Chunks {
    var exif: ArraySlice<UInt8>?
    var width: Int?
    var height: Int?
  }

  /// The largest `eXIf` chunk read (JPEG caps EXIF at 64 KB; 1 MiB leaves room without letting a file demand 2 GB).
  static let maximumExifBytes = 1 << 20
  /// More chunks than a real PNG has before its image data: a file with more is refused.
  static let maximumChunks = 4_096
  /// How many chunk headers are walked after the first `IDAT` looking for an `eXIf` (image data comes in chunks of
  /// 8 KiB to 1 MiB, so this covers a PNG of 512 MiB written in 8 KiB chunks); past it the PNG has no EXIF.
  static let maximumChunksAfterImageData = 65_536

  static func read<Source>(_ window: inout ByteWindow<Source>) throws(PhotoAnalysisError) -> Chunks {
    var chunks = Chunks()
    var position = 8  // after the signature
    var isFirst = true
    var seenImageData = false
    var budget = maximumChunks  // chunk headers left to walk
    while true {
      guard budget > 0 else {
        guard seenImageData else {
          throw .metadataExtractionFailed("the PNG has more than \(maximumChunks) chunks before its image data")
        }
        return chunks  // no eXIf within reach after the image data
      }
      budget -= 1
      // After the image data the next header is usually a whole IDAT away: fetch little, so a PNG without EXIF costs
      // one small read per chunk instead of reading all its pixels.
      let readAhead = seenImageData ? 512 : ByteWindow<Source>.chunkSize
      let header = try window.bytes(at: position, count: 8, readAhead: readAhead)
      guard header.count == 8 else {
        guard !isFirst else { throw .metadataExtractionFailed("the PNG ends before its IHDR chunk") }
        return chunks
      }
      let start = header.startIndex
      let length = header[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: header[start + 4..<start + 8], as: UTF8.self)
      guard length <= Int(Int32.max) else {
        throw .metadataExtractionFailed("the PNG chunk at byte \(position) declares \(length) bytes")
      }
      if isFirst {
        guard type == "IHDR", length >= 8, let width = try window.uint32(at: position + 8),
          let height = try window.uint32(at: position + 12)
        else { throw .metadataExtractionFailed("the PNG does not start with a valid IHDR chunk") }
        chunks.width = width > 0 ? width : nil
        chunks.height = height > 0 ? height : nil
        isFirst = false
      } else if type == "IEND" {
        return chunks
      } else if type == "IDAT" {
        if chunks.exif != nil { return chunks }  // the eXIf came first, where PNG 1.5 asks for it
        if !seenImageData {
          seenImageData = true
          budget = maximumChunksAfterImageData
        }
      } else if type == "eXIf", chunks.exif == nil {
        guard length <= maximumExifBytes else {
          throw .metadataExtractionFailed(
            "the PNG's eXIf chunk is \(length) bytes, over the \(maximumExifBytes)-byte limit")
        }
        var exif = try window.bytes(at: position + 8, count: length)
        // Some writers keep JPEG's "Exif\0\0" prefix inside the chunk.
        if exif.starts(with: [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]) { exif = exif.dropFirst(6) }
        chunks.exif = exif
        if seenImageData { return chunks }
      }
      let (next, overflow) = position.addingReportingOverflow(12 + length)
      guard !overflow else { return chunks }
      position = next
    }
  }
}

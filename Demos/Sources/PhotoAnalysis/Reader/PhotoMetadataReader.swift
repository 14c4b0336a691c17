#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads a photo's metadata — EXIF/TIFF/GPS from a JPEG, a PNG or a TIFF file — in plain Swift: no ImageIO, no
/// formatters, no package. The format comes from the first bytes, never from the file name.
///
/// It reads only what it needs (the first bytes, each segment header, the metadata segments), checks every offset
/// and length against the bytes it has, does bounded work on any input, and throws a typed
/// ``PhotoAnalysisError`` instead of trapping. A photo with no EXIF is not an error: its metadata has
/// `hasExif == false` and whatever the container itself says (pixel size).
///
/// ```swift
/// let metadata = try PhotoMetadataReader.read(fileAt: URL(fileURLWithPath: "r_sony.jpg"))
/// metadata.camera                       // "SONY DSC-RX1R"
/// metadata.pixelWidth                   // 80
/// metadata.captureDate?.description     // "2013:04:13 10:22:18"
///
/// try PhotoMetadataReader.read([])      // throws .invalidImage("the file is empty")
/// ```
public enum PhotoMetadataReader {
  /// How much of a TIFF file is read to find its IFD0: TIFF metadata usually sits at its start.
  public static let tiffHeadBytes = 1 << 20

  /// Reads the file at `url`.
  public static func read(fileAt url: URL) throws(PhotoAnalysisError) -> PhotoMetadata {
    try read(from: PhotoFile(path: url.path))
  }

  /// Reads bytes in memory.
  public static func read(_ bytes: [UInt8]) throws(PhotoAnalysisError) -> PhotoMetadata {
    try read(from: PhotoBytes(bytes))
  }

  /// Reads from any source of bytes.
  public static func read(from source: some PhotoByteSource) throws(PhotoAnalysisError) -> PhotoMetadata {
    var window = ByteWindow(source)
    let head = Array(try window.bytes(at: 0, count: 12))
    if head.starts(with: [0xFF, 0xD8, 0xFF]) {
      let segments = try JPEGSegmentReader.read(&window)
      return try metadata(
        .jpeg, exif: segments.exif, width: segments.width, height: segments.height)
    }
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      let chunks = try PNGChunkReader.read(&window)
      return try metadata(.png, exif: chunks.exif, width: chunks.width, height: chunks.height)
    }
    if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
      let tiff = try window.bytes(at: 0, count: tiffHeadBytes)
      return try metadata(.tiff, exif: tiff, width: nil, height: nil)
    }
    throw .invalidImage(describe(head))
  }

  /// The metadata of a `container` whose EXIF block (a TIFF structure) is `exif`, if any.
  private static func metadata(
    _ container: ImageContainer, exif: ArraySlice<UInt8>?, width: Int?, height: Int?
  ) throws(PhotoAnalysisError) -> PhotoMetadata {
    var metadata = PhotoMetadata(container: container, pixelWidth: width, pixelHeight: height)
    guard let exif else { return metadata }
    let fields = try TIFFMetadataReader.read(exif)
    metadata.hasExif = true
    metadata.make = fields.make
    metadata.model = fields.model
    metadata.software = fields.software
    metadata.lensMake = fields.lensMake
    metadata.lensModel = fields.lensModel
    metadata.orientation = fields.orientation
    metadata.captureDate = fields.dateTimeOriginal.flatMap { PhotoDate(exif: $0, offset: fields.offsetTimeOriginal) }
    metadata.modificationDate = fields.dateTime.flatMap { PhotoDate(exif: $0, offset: fields.offsetTime) }
    metadata.latitude = fields.latitude
    metadata.longitude = fields.longitude
    metadata.altitude = fields.altitude
    if container == .tiff {
      metadata.pixelWidth = fields.imageWidth.flatMap { $0 > 0 ? $0 : nil }
      metadata.pixelHeight = fields.imageHeight.flatMap { $0 > 0 ? $0 : nil }
    }
    return metadata
  }

  /// What the first bytes of something that is not a supported image look like.
  private static func describe(_ head: [UInt8]) -> String {
    if head.isEmpty { return "the file is empty" }
    if head.count >= 12, head[4..<8].elementsEqual(Array("ftyp".utf8)) {
      return "an ISO media file (HEIC, AVIF or video); only JPEG, PNG and TIFF photos are read"
    }
    if head.starts(with: Array("GIF8".utf8)) { return "a GIF; only JPEG, PNG and TIFF photos are read" }
    if head.starts(with: Array("RIFF".utf8)) { return "a RIFF file (WebP?); only JPEG, PNG and TIFF photos are read" }
    let digits = Array("0123456789abcdef")
    let hex = head.prefix(8).map { "\(digits[Int($0 >> 4)])\(digits[Int($0 & 0xF)])" }.joined(separator: " ")
    return "no JPEG, PNG or TIFF signature (starts with \(hex))"
  }
}

import Foundation
import PhotoAnalysis
import XCTest

/// Hostile and broken input: every case ends in metadata or a typed error, after bounded work, without reading more
/// of the file than the metadata needs.
final class PhotoMetadataRobustnessTests: XCTestCase {
  private func read(_ bytes: [UInt8]) -> Result<PhotoMetadata, PhotoAnalysisError> {
    Result { () throws(PhotoAnalysisError) in try PhotoMetadataReader.read(bytes) }
  }

  private func failure(_ bytes: [UInt8]) -> PhotoAnalysisError? {
    if case let .failure(error) = read(bytes) { error } else { nil }
  }

  // MARK: - IFD structure

  func testExifAndGPSPointersBackToIFD0AreSkipped() throws {
    let tiff = TIFFBuilder(ifd0: [.ascii(0x010F, "Loop"), .long(0x8769, 8), .long(0x8825, 8)]).bytes
    let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff))
    XCTAssertEqual(metadata.make, "Loop")
    XCTAssertNil(metadata.captureDate)
  }

  func testGPSPointerToTheExifIFDIsSkipped() throws {
    // The Exif IFD also holds GPS-numbered tags, and IFD0's GPS pointer aims at it too.
    var builder = TIFFBuilder(
      ifd0: [.ascii(0x010F, "Twice"), .long(0x8825, 0)],
      exif: [
        .ascii(0x0001, "N"), .rational(0x0002, [(10, 1)]), .ascii(0x0003, "E"), .rational(0x0004, [(10, 1)]),
        .ascii(0x9003, "2020:02:02 02:02:02"),
      ])
    builder.ifd0[1] = .long(0x8825, builder.exifOffset)
    let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: builder.bytes))
    XCTAssertEqual(metadata.captureDate?.year, 2020, "the Exif IFD is read once, as the Exif IFD")
    XCTAssertNil(metadata.latitude, "not again as the GPS IFD")
  }

  func testIFD0OutsideTheBlockIsAnError() {
    var tiff = TIFFBuilder(ifd0: [.ascii(0x010F, "X")]).bytes
    tiff.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0, 0])
    XCTAssertEqual(
      failure(PhotoFixtures.jpeg(exif: tiff)),
      .metadataExtractionFailed("IFD0 starts at byte 65535, outside the \(tiff.count)-byte EXIF block"))
    tiff.replaceSubrange(4..<8, with: [4, 0, 0, 0])
    XCTAssertEqual(
      failure(PhotoFixtures.jpeg(exif: tiff)),
      .metadataExtractionFailed("IFD0 starts at byte 4, outside the \(tiff.count)-byte EXIF block"),
      "inside the header")
  }

  func testSubIFDsOutsideTheBlockAreSkipped() throws {
    let tiff = TIFFBuilder(ifd0: [.ascii(0x010F, "Far"), .long(0x8769, 0xFFFF_FFF0), .long(0x8825, 70_000)]).bytes
    XCTAssertEqual(try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff)).make, "Far")
  }

  func testAnEntryCountLargerThanTheBlockReadsTheEntriesThatFit() throws {
    var tiff = TIFFBuilder(ifd0: [.ascii(0x010F, "Cut"), .ascii(0x0110, "Short")]).bytes
    tiff.replaceSubrange(8..<10, with: [0xFF, 0xFF])  // 65535 entries declared, 2 present
    let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff))
    XCTAssertEqual(metadata.make, "Cut")
    XCTAssertEqual(metadata.model, "Short")
  }

  func testValuesPastTheEndOrWithOverflowingSizesAreSkipped() throws {
    let tiff = TIFFBuilder(ifd0: [
      .raw(0x010F, type: 2, count: 100, valueOrOffset: 0xFFFF_FF00),  // offset past the end
      .raw(0x0110, type: 5, count: 0x7FFF_FFFF, valueOrOffset: 8),  // 8 × 2³¹ bytes
      .raw(0x0131, type: 2, count: 0xFFFF_FFFF, valueOrOffset: 0xFFFF_FFFF),  // both at their maximum
      .raw(0x0132, type: 99, count: 1, valueOrOffset: 0),  // unknown type
      .raw(0x0112, type: 3, count: 0, valueOrOffset: 0),  // no values
      .ascii(0xA434, "kept"),
    ]).bytes
    let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff))
    XCTAssertEqual(metadata, PhotoMetadata(container: .jpeg, hasExif: true, pixelWidth: 640, pixelHeight: 480))
  }

  func testBrokenTIFFHeaders() {
    let cases: [([UInt8], String)] = [
      ([], "the EXIF block is 0 bytes, too short for a TIFF header"),
      ([0x49, 0x49, 0x2A], "the EXIF block is 3 bytes, too short for a TIFF header"),
      ([0x41, 0x41, 0x2A, 0, 8, 0, 0, 0], "the EXIF block has no TIFF byte-order mark (II or MM)"),
      ([0x49, 0x49, 0x2B, 0, 8, 0, 0, 0], "the EXIF block's TIFF header does not carry the number 42"),
    ]
    for (tiff, reason) in cases {
      XCTAssertEqual(failure(PhotoFixtures.jpeg(exif: tiff)), .metadataExtractionFailed(reason))
    }
  }

  // MARK: - Container structure

  func testBrokenJPEGStructures() {
    let soi: [UInt8] = [0xFF, 0xD8, 0xFF]
    let cases: [([UInt8], String)] = [
      (soi, "the JPEG ends at byte 2, before its frame header"),
      (soi + [0xE0], "the JPEG ends inside the segment at byte 2"),
      (soi + [0xE0, 0x00, 0x01], "the JPEG segment 0xFFE0 at byte 2 has length 1"),
      ([0xFF, 0xD8, 0xFF, 0xD8], "unexpected JPEG marker 0xFFD8 at byte 2"),
      ([0xFF, 0xD8, 0xFF, 0xDA, 0, 2], "the JPEG reaches its image data at byte 2 without a frame header"),
      (soi + [0xE0, 0, 2, 0x12, 0x34], "expected a JPEG marker at byte 6, found garbage"),
    ]
    for (jpeg, reason) in cases {
      XCTAssertEqual(failure(jpeg), .metadataExtractionFailed(reason), reason)
    }
  }

  func testTooManySegmentsIsRefusedNotWalkedForever() {
    var jpeg: [UInt8] = [0xFF, 0xD8]
    for _ in 0..<5_000 { jpeg += [0xFF, 0xFE, 0, 2] }  // empty comments
    XCTAssertEqual(
      failure(jpeg), .metadataExtractionFailed("the JPEG has more than 4096 markers before its image data"))
  }

  func testBrokenPNGStructures() {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    XCTAssertEqual(failure(signature), .metadataExtractionFailed("the PNG ends before its IHDR chunk"))
    XCTAssertEqual(
      failure(signature + PhotoFixtures.chunk("tEXt", [1, 2, 3])),
      .metadataExtractionFailed("the PNG does not start with a valid IHDR chunk"))
    let ihdr = PhotoFixtures.chunk(
      "IHDR", PhotoFixtures.bigEndian32(1) + PhotoFixtures.bigEndian32(1) + [8, 2, 0, 0, 0])
    XCTAssertEqual(
      failure(signature + ihdr + [0xFF, 0xFF, 0xFF, 0xFF] + Array("eXIf".utf8)),
      .metadataExtractionFailed("the PNG chunk at byte 33 declares 4294967295 bytes"))
    XCTAssertEqual(
      failure(signature + ihdr + PhotoFixtures.bigEndian32(2_000_000) + Array("eXIf".utf8)),
      .metadataExtractionFailed("the PNG's eXIf chunk is 2000000 bytes, over the 1048576-byte limit"))
  }

  func testEveryTruncationOfARealPhotoEndsInMetadataOrATypedError() throws {
    let photo = try PhotoFixtures.bytes(PhotoFixtures.piexif("r_ricoh.jpg"))
    var outcomes: [String: Int] = [:]
    // Every length through the metadata (the Exif segment, then the frame header), then every 97th byte.
    let lengths = Array(0..<min(photo.count, 30_000)) + Array(stride(from: 30_000, to: photo.count, by: 97))
    for length in lengths {
      switch read(Array(photo.prefix(length))) {
      case .success: outcomes["metadata", default: 0] += 1
      case let .failure(error): outcomes[error.kind, default: 0] += 1
      }
    }
    XCTAssertEqual(outcomes.values.reduce(0, +), lengths.count)
    XCTAssertEqual(outcomes["invalidImage"], 3, "0, 1 and 2 bytes are no JPEG yet")
    XCTAssertGreaterThan(outcomes["metadataExtractionFailed"] ?? 0, 0)
    XCTAssertGreaterThan(outcomes["metadata"] ?? 0, 0)
  }

  func testBitFlipsInRealPhotosEndInMetadataOrATypedError() throws {
    // Deterministic: a fixed linear congruential sequence picks the bytes and bits.
    var state: UInt64 = 14
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    for url in PhotoFixtures.piexifPhotos where !url.lastPathComponent.hasPrefix("notjpeg") {
      let photo = try PhotoFixtures.bytes(url)
      for _ in 0..<300 {
        var mutated = photo
        for _ in 0..<(1 + next() % 8) {
          let index = next() % min(mutated.count, 4_096)
          mutated[index] ^= UInt8(1 << (next() % 8))
        }
        _ = read(mutated)
      }
    }
  }

  // MARK: - Reading only what is needed

  /// A source that records the bytes asked for.
  private final class CountingSource: PhotoByteSource {
    let file: PhotoFile
    private(set) var requested = 0
    private(set) var furthest = 0
    init(_ file: PhotoFile) { self.file = file }
    func read(at offset: Int, count: Int) throws(PhotoAnalysisError) -> [UInt8] {
      let bytes = try file.read(at: offset, count: count)
      requested += bytes.count
      furthest = max(furthest, offset + bytes.count)
      return bytes
    }
  }

  func testA50MBJPEGIsReadOnlyUpToItsMetadata() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString).jpg")
    defer { try? FileManager.default.removeItem(at: url) }
    // A real camera JPEG's header and a 50 MB scan (a sparse file: no 50 MB written).
    let photo = try PhotoFixtures.bytes(PhotoFixtures.piexif("r_ricoh.jpg"))
    try Data(photo).write(to: url)
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: 50_000_000)
    try handle.close()

    let source = CountingSource(try PhotoFile(path: url.path))
    let metadata = try PhotoMetadataReader.read(from: source)
    XCTAssertEqual(metadata.model, "GR")
    XCTAssertEqual(metadata.pixelWidth, 80)
    // Its metadata ends where the scan starts, at byte 40,191: the reader's one 64 KB read covers it, and it reads
    // nothing more.
    XCTAssertEqual(source.furthest, 65_536)
    XCTAssertEqual(source.requested, 65_536)
  }

  func testAPNGIsWalkedPastItsImageDataNotRead() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: url) }
    let start = PhotoFixtures.png(exif: nil, width: 4_000, height: 3_000).prefix(33)  // signature and IHDR
    let imageData = PhotoFixtures.chunk("IDAT", Array(repeating: 0, count: 100_000))
    let exif = TIFFBuilder(order: .bigEndian, ifd0: [.short(0x0112, 3)]).bytes
    for exifAtTheEnd in [false, true] {
      var png = Array(start)
      for _ in 0..<200 { png += imageData }  // 20 MB of image data
      if exifAtTheEnd { png += PhotoFixtures.chunk("eXIf", exif) }
      png += PhotoFixtures.chunk("IEND", [])
      try Data(png).write(to: url)
      let source = CountingSource(try PhotoFile(path: url.path))
      let metadata = try PhotoMetadataReader.read(from: source)
      XCTAssertEqual(metadata.hasExif, exifAtTheEnd)
      XCTAssertEqual(metadata.orientation, exifAtTheEnd ? 3 : nil)
      XCTAssertEqual(metadata.pixelWidth, 4_000)
      // One 64 KB read for the start, then a small read per chunk header: not the 20 MB of pixels.
      XCTAssertLessThan(source.requested, 65_536 + 201 * 600, "exif at the end: \(exifAtTheEnd)")
    }
  }

  func testChunkHeadersAfterTheImageDataAreWalkedABoundedNumberOfTimes() throws {
    var png = PhotoFixtures.png(exif: nil).dropLast(12)  // up to its IDAT, without IEND
    for _ in 0..<(65_536 + 10) { png += PhotoFixtures.chunk("tEXt", []) }  // the article: at most 65,536 headers
    png += PhotoFixtures.chunk("eXIf", TIFFBuilder(order: .bigEndian, ifd0: [.short(0x0112, 3)]).bytes)
    let metadata = try PhotoMetadataReader.read(Array(png))
    XCTAssertFalse(metadata.hasExif, "an eXIf past the bound is not looked for")
    XCTAssertEqual(metadata.pixelWidth, 320)
  }

  /// The synthetic seeds are committed in the fuzz corpus (so `Scripts/fuzz photo-metadata` starts from them); run
  /// with `PHOTO_FUZZ_SEEDS_UPDATE=1` after changing them to rewrite the files.
  func testTheSyntheticSeedsAreInTheFuzzCorpus() throws {
    let update = ProcessInfo.processInfo.environment["PHOTO_FUZZ_SEEDS_UPDATE"] == "1"
    for (name, bytes) in PhotoFixtures.syntheticSeeds {
      let url = PhotoFixtures.fuzzCorpusFolder.appendingPathComponent(name)
      if update { try Data(bytes).write(to: url) }
      XCTAssertEqual(try? PhotoFixtures.bytes(url), bytes, "\(name) differs: PHOTO_FUZZ_SEEDS_UPDATE=1 rewrites it")
    }
  }
}

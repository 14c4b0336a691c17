import Foundation
import PhotoAnalysis
import XCTest

/// What the reader gets out of real camera files and of synthetic ones covering each field's encodings.
final class PhotoMetadataReaderTests: XCTestCase {
  // MARK: - Real photos

  func testSonyOriginal() throws {
    let metadata = try PhotoMetadataReader.read(fileAt: PhotoFixtures.piexif("r_sony.jpg"))
    XCTAssertEqual(
      metadata,
      PhotoMetadata(
        container: .jpeg, hasExif: true, make: "SONY", model: "DSC-RX1R", software: "DSC-RX1R v1.00", pixelWidth: 80,
        pixelHeight: 80, captureDate: PhotoDate(year: 2013, month: 4, day: 13, hour: 10, minute: 22, second: 18),
        modificationDate: PhotoDate(year: 2013, month: 4, day: 13, hour: 10, minute: 22, second: 18), orientation: 1))
  }

  func testRicohHasLensMakeAndModelWithTrailingSpacesTrimmed() throws {
    let metadata = try PhotoMetadataReader.read(fileAt: PhotoFixtures.piexif("r_ricoh.jpg"))
    XCTAssertEqual(metadata.lensMake, "PENTAX RICOH IMAGING")
    XCTAssertEqual(metadata.lensModel, "GR LENS", "stored as 'GR LENS' + 36 spaces")
    XCTAssertEqual(metadata.software, "GR Firmware Ver 01.10")
    XCTAssertEqual(metadata.captureDate?.description, "2013:03:29 10:06:41")
    XCTAssertEqual(metadata.modificationDate?.description, "2013:04:08 15:16:01")
  }

  func testOlympusEmptyLensModelIsAbsent() throws {
    let metadata = try PhotoMetadataReader.read(fileAt: PhotoFixtures.piexif("r_olympus.jpg"))
    XCTAssertEqual(metadata.make, "OLYMPUS IMAGING CORP.")
    XCTAssertEqual(metadata.model, "STYLUS1")
    XCTAssertNil(metadata.lensModel, "an all-spaces LensModel says nothing")
  }

  func testPixelSizeComesFromTheFrameHeaderNotFromExif() throws {
    // 02.jpg was resized in GIMP: EXIF still says 1366×720, the image is 400×210.
    let metadata = try PhotoMetadataReader.read(fileAt: PhotoFixtures.piexif("02.jpg"))
    XCTAssertEqual(metadata.pixelWidth, 400)
    XCTAssertEqual(metadata.pixelHeight, 210)
    XCTAssertEqual(metadata.software, "GIMP 2.6.11")
  }

  func testGPSWithOneComponentAndNoReferenceGivesNoCoordinate() throws {
    // 01.jpg (PIL): GPSLatitude = [4294967295/1], no GPSLatitudeRef; GPSAltitudeRef without GPSAltitude.
    let metadata = try PhotoMetadataReader.read(fileAt: PhotoFixtures.piexif("01.jpg"))
    XCTAssertNil(metadata.latitude)
    XCTAssertNil(metadata.longitude)
    XCTAssertNil(metadata.altitude)
    XCTAssertEqual(metadata.lensMake, "LensMake")
    XCTAssertEqual(metadata.captureDate?.year, 2099)
  }

  func testJPEGWithoutExifIsNotAnError() throws {
    for name in ["noexif.jpg", "noapp01.jpg"] {
      let metadata = try PhotoMetadataReader.read(fileAt: PhotoFixtures.piexif(name))
      XCTAssertEqual(metadata, PhotoMetadata(container: .jpeg, pixelWidth: 50, pixelHeight: 50), name)
    }
  }

  func testEmptyFileIsInvalidImage() {
    XCTAssertThrowsError(try PhotoMetadataReader.read(fileAt: PhotoFixtures.piexif("notjpeg.jpg"))) {
      XCTAssertEqual($0 as? PhotoAnalysisError, .invalidImage("the file is empty"))
    }
  }

  func testMissingFileIsUnreadable() {
    XCTAssertThrowsError(try PhotoMetadataReader.read(fileAt: URL(fileURLWithPath: "/nonexistent/photo.jpg"))) {
      XCTAssertEqual(
        $0 as? PhotoAnalysisError,
        .unreadableFile(path: "/nonexistent/photo.jpg", reason: "No such file or directory"))
    }
  }

  func testAFolderIsUnreadableNotACrash() {
    XCTAssertThrowsError(try PhotoMetadataReader.read(fileAt: PhotoFixtures.piexifFolder)) {
      guard case .unreadableFile = $0 as? PhotoAnalysisError else { return XCTFail("\($0)") }
    }
  }

  func testTextIsNotAnImage() {
    XCTAssertThrowsError(try PhotoMetadataReader.read(Array("hello, world".utf8))) {
      XCTAssertEqual(
        $0 as? PhotoAnalysisError,
        .invalidImage("no JPEG, PNG or TIFF signature (starts with 68 65 6c 6c 6f 2c 20 77)"))
    }
  }

  func testHEICIsNamedInTheError() {
    let heic: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0]
    XCTAssertThrowsError(try PhotoMetadataReader.read(heic)) {
      guard case let .invalidImage(reason) = $0 as? PhotoAnalysisError else { return XCTFail("\($0)") }
      XCTAssertTrue(reason.contains("HEIC"), reason)
    }
  }

  // MARK: - Synthetic photos: every field and encoding

  private static let everything = PhotoFixtures.everyField

  private static let everythingExpected = PhotoMetadata(
    container: .jpeg, hasExif: true, make: "Apple", model: "iPhone 15 Pro", lensMake: "Apple",
    lensModel: "iPhone 15 Pro back triple camera 6.86mm f/1.78", software: "17.1", pixelWidth: 4_032,
    pixelHeight: 3_024,
    captureDate: PhotoDate(year: 2024, month: 1, day: 2, hour: 3, minute: 4, second: 0, utcOffsetMinutes: -300),
    modificationDate: PhotoDate(year: 2024, month: 1, day: 2, hour: 3, minute: 4, second: 5, utcOffsetMinutes: -300),
    orientation: 6, latitude: -(33 + 51.0 / 60 + 24.48 / 3_600), longitude: -(151 + 12.0 / 60 + 30.0 / 3_600),
    altitude: GPSAltitude(meters: 12.5, reference: .belowSeaLevel))

  func testEveryFieldInBothByteOrders() throws {
    for order in [TIFFBuilder.ByteOrder.littleEndian, .bigEndian] {
      var tiff = Self.everything
      tiff.order = order
      let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes, width: 4_032, height: 3_024))
      XCTAssertEqual(metadata, Self.everythingExpected, "\(order)")
    }
  }

  func testPNGeXIfChunk() throws {
    for exifAfterImageData in [false, true] {
      let png = PhotoFixtures.png(
        exif: Self.everything.bytes, width: 4_032, height: 3_024, exifAfterImageData: exifAfterImageData)
      // Before the image data, where PNG 1.5 asks for it, or after it, where ImageMagick writes it: both are read.
      var expected = Self.everythingExpected
      expected.container = .png
      XCTAssertEqual(try PhotoMetadataReader.read(png), expected, "eXIf after IDAT: \(exifAfterImageData)")
    }
  }

  func testPNGeXIfWithAJPEGStyleExifPrefix() throws {
    let png = PhotoFixtures.png(exif: Array("Exif".utf8) + [0, 0] + Self.everything.bytes)
    XCTAssertEqual(try PhotoMetadataReader.read(png).make, "Apple")
  }

  func testTIFFFileTakesItsPixelSizeFromIFD0() throws {
    let tiff = TIFFBuilder(
      order: .bigEndian, ifd0: [.long(0x0100, 3_000), .short(0x0101, 2_000), .ascii(0x010F, "Nikon")]
    ).bytes
    let metadata = try PhotoMetadataReader.read(tiff)
    XCTAssertEqual(
      metadata, PhotoMetadata(container: .tiff, hasExif: true, make: "Nikon", pixelWidth: 3_000, pixelHeight: 2_000))
  }

  func testProgressiveAndOtherFrameHeadersGiveThePixelSize() throws {
    for marker: UInt8 in [0xC0, 0xC1, 0xC2, 0xC3, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF] {
      let metadata = try PhotoMetadataReader.read(
        PhotoFixtures.jpeg(exif: nil, width: 1_234, height: 567, frameMarker: marker))
      XCTAssertEqual(metadata.pixelWidth, 1_234, String(marker, radix: 16))
      XCTAssertEqual(metadata.pixelHeight, 567, String(marker, radix: 16))
    }
  }

  func testNorthAndEastArePositiveAndAltitudeAboveSeaLevelByDefault() throws {
    let tiff = TIFFBuilder(
      ifd0: [],
      gps: [
        .ascii(0x0001, "N"), .rational(0x0002, [(48, 1), (51, 1), (30, 1)]),
        .ascii(0x0003, "E"), .rational(0x0004, [(2, 1), (17, 1), (40, 1)]),
        .rational(0x0006, [(35, 1)]),
      ])
    let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes))
    XCTAssertEqual(try XCTUnwrap(metadata.latitude), 48.858_333, accuracy: 1e-6)
    XCTAssertEqual(try XCTUnwrap(metadata.longitude), 2.294_444, accuracy: 1e-6)
    XCTAssertEqual(metadata.altitude, GPSAltitude(meters: 35, reference: .aboveSeaLevel))
    XCTAssertEqual(metadata.altitude?.signedMeters, 35)
  }

  func testGPSZeroDenominators() throws {
    func latitude(_ parts: [(UInt32, UInt32)]) throws -> Double? {
      let tiff = TIFFBuilder(
        ifd0: [],
        gps: [.ascii(0x0001, "N"), .rational(0x0002, parts), .ascii(0x0003, "E"), .rational(0x0004, [(1, 1)])])
      return try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes)).latitude
    }
    XCTAssertEqual(try latitude([(10, 1), (30, 1), (0, 0)]), 10.5, "0/0 seconds: unknown, read as 0")
    XCTAssertNil(try latitude([(10, 1), (30, 0), (0, 1)]), "30/0 minutes: no coordinate rather than infinity")
    XCTAssertEqual(try latitude([(45, 1)]), 45, "degrees only")
    XCTAssertNil(try latitude([(91, 1)]), "past the pole")
    XCTAssertNil(try latitude([]), "no components")
  }

  func testGPSWithAnUnknownReferenceLetterGivesNoCoordinate() throws {
    let tiff = TIFFBuilder(
      ifd0: [],
      gps: [.ascii(0x0001, "X"), .rational(0x0002, [(10, 1)]), .ascii(0x0003, "E"), .rational(0x0004, [(10, 1)])])
    let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes))
    XCTAssertNil(metadata.latitude)
    XCTAssertEqual(metadata.longitude, 10)
    XCTAssertFalse(metadata.hasLocation)
  }

  func testAltitudeWithZeroDenominatorIsAbsent() throws {
    let tiff = TIFFBuilder(ifd0: [], gps: [.rational(0x0006, [(35, 0)])])
    XCTAssertNil(try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes)).altitude)
  }

  func testStringsStopAtTheFirstNULAndLoseTrailingSpaces() throws {
    let tiff = TIFFBuilder(ifd0: [
      .bytes(0x010F, Array("Canon".utf8) + [0, 0x41, 0x42, 0]), .bytes(0x0110, Array("EOS R5   ".utf8) + [0, 0]),
      .bytes(0x0131, [0x20, 0x20, 0]),
    ])
    let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes))
    XCTAssertEqual(metadata.make, "Canon")
    XCTAssertEqual(metadata.model, "EOS R5")
    XCTAssertNil(metadata.software, "blank")
  }

  func testInvalidUTF8IsReplacedNotFatal() throws {
    let tiff = TIFFBuilder(ifd0: [.bytes(0x010F, [0x4E, 0x69, 0x6B, 0xFF, 0xFE, 0x6F, 0x6E, 0]), .ascii(0x0110, "Zf")])
    let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes))
    XCTAssertEqual(metadata.make, "Nik\u{FFFD}\u{FFFD}on")
    XCTAssertEqual(metadata.model, "Zf")
  }

  func testUTF8TextIsKept() throws {
    let tiff = TIFFBuilder(ifd0: [.ascii(0x0131, "Fotos für Mac 9.0 — 写真")])
    XCTAssertEqual(
      try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes)).software, "Fotos für Mac 9.0 — 写真")
  }

  func testOrientationOutOfRangeIsAbsent() throws {
    for (value, expected) in [(1, 1), (8, 8), (0, nil), (9, nil), (65_535, nil)] as [(Int, Int?)] {
      let tiff = TIFFBuilder(ifd0: [.short(0x0112, value)])
      XCTAssertEqual(
        try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes)).orientation, expected, "\(value)")
    }
  }

  func testDatesThatAreNotDatesAreAbsent() throws {
    let tiff = TIFFBuilder(ifd0: [.ascii(0x0132, "0000:00:00 00:00:00")], exif: [.ascii(0x9003, "    :  :     :  :  ")])
    let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes))
    XCTAssertTrue(metadata.hasExif)
    XCTAssertNil(metadata.captureDate)
    XCTAssertNil(metadata.modificationDate)
  }

  func testWrongValueTypesAreSkipped() throws {
    let tiff = TIFFBuilder(ifd0: [.short(0x010F, 42), .ascii(0x0112, "6"), .rational(0x0110, [(1, 2)])])
    let metadata = try PhotoMetadataReader.read(PhotoFixtures.jpeg(exif: tiff.bytes))
    XCTAssertEqual(metadata, PhotoMetadata(container: .jpeg, hasExif: true, pixelWidth: 640, pixelHeight: 480))
  }

  func testTheFirstExifSegmentWins() throws {
    let first = TIFFBuilder(ifd0: [.ascii(0x010F, "First")]).bytes
    let second = TIFFBuilder(ifd0: [.ascii(0x010F, "Second")]).bytes
    var jpeg = PhotoFixtures.jpeg(exif: first)
    jpeg.insert(contentsOf: PhotoFixtures.segment(0xE1, Array("Exif".utf8) + [0, 0] + second), at: 2)
    XCTAssertEqual(try PhotoMetadataReader.read(jpeg).make, "Second", "the one met first in the file")
  }

  func testAnXMPSegmentIsNotMistakenForExif() throws {
    var jpeg = PhotoFixtures.jpeg(exif: nil)
    jpeg.insert(
      contentsOf: PhotoFixtures.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)), at: 2)
    XCTAssertFalse(try PhotoMetadataReader.read(jpeg).hasExif)
  }

  func testFillBytesAndRestartMarkersBeforeTheFrame() throws {
    var jpeg = PhotoFixtures.jpeg(exif: TIFFBuilder(ifd0: [.ascii(0x010F, "Fuji")]).bytes)
    jpeg.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xD0, 0xFF, 0x01], at: 2)
    let metadata = try PhotoMetadataReader.read(jpeg)
    XCTAssertEqual(metadata.make, "Fuji")
    XCTAssertEqual(metadata.pixelWidth, 640)
  }
}

import Foundation
import PhotoAnalysis
import XCTest

/// Real files from public test corpora (`Tests/Fixtures/PhotoAnalysis/{pillow,exiv2}`, licences beside them) on
/// which the reader once disagreed with ExifTool, one test per cause. Expected values are ExifTool 12.57's
/// (`exiftool -json -n`), read from IFD0, the Exif IFD and the GPS IFD.
final class PhotoMetadataRealFileTests: XCTestCase {
  private func read(_ path: String) throws -> PhotoMetadata {
    try PhotoMetadataReader.read(fileAt: PhotoFixtures.real(path))
  }

  /// Fujifilm's X-T3 and gThumb write IFD0 `Orientation` as SLONG (type 9, `09 00` in the entry) instead of SHORT.
  func testOrientationStoredAsASignedLongIsRead() throws {
    let fujifilm = try read("exiv2/FujiTagsDRangeAutoRating1.jpg")
    XCTAssertEqual(fujifilm.camera, "FUJIFILM X-T3")
    XCTAssertEqual(fujifilm.orientation, 1)
    XCTAssertEqual(try read("pillow/exif-72dpi-int.jpg").orientation, 1)
  }

  /// A geotagged Canon PowerShot S5 IS JPEG whose IFD0 `GPSInfo` pointer is SLONG (type 9): the GPS IFD it points
  /// to is ordinary.
  func testAGPSPointerStoredAsASignedLongIsFollowed() throws {
    let metadata = try read("exiv2/FurnaceCreekInn.jpg")
    XCTAssertEqual(metadata.camera, "Canon PowerShot S5 IS")
    XCTAssertEqual(try XCTUnwrap(metadata.latitude), 36 + 26.0 / 60 + 54.0 / 3_600, accuracy: 1e-9)
    XCTAssertEqual(try XCTUnwrap(metadata.longitude), -(116 + 51.0 / 60 + 18.0 / 3_600), accuracy: 1e-9)
    XCTAssertEqual(metadata.altitude, GPSAltitude(meters: 14.28, reference: .belowSeaLevel))
  }

  /// An `eXIf` chunk after the image data (`IHDR … IDAT × 6, eXIf, tEXt …, IEND`), as ImageMagick writes it.
  func testAPNGeXIfChunkAfterTheImageDataIsRead() throws {
    let metadata = try read("pillow/exif.png")
    XCTAssertEqual(metadata.container, .png)
    XCTAssertTrue(metadata.hasExif)
    XCTAssertEqual(metadata.orientation, 1)
    XCTAssertEqual(metadata.pixelWidth, 512)
  }

  /// IFD0 `DateTime` written in ISO 8601 by Photoshop CC 2019 (with a zone) and ImageReady (`Z`).
  func testAnISO8601DateTimeIsTheModificationDate() throws {
    XCTAssertEqual(
      try read("pillow/invalid-exif-without-x-resolution.jpg").modificationDate,
      PhotoDate(year: 2019, month: 10, day: 17, hour: 16, minute: 55, second: 20, utcOffsetMinutes: -420))
    XCTAssertEqual(
      try read("exiv2/smiley1.jpg").modificationDate,
      PhotoDate(year: 2004, month: 7, day: 13, hour: 21, minute: 23, second: 44, utcOffsetMinutes: 0))
  }
}

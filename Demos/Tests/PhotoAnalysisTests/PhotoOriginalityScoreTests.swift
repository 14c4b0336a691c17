import PhotoAnalysis
import XCTest

/// The score table of the "Photo analysis" article (Sources/PhotoAnalysis/PhotoAnalysis.docc/PhotoAnalysisGuide.md),
/// rule by rule.
final class PhotoOriginalityScoreTests: XCTestCase {
  private let captured = PhotoDate(year: 2023, month: 5, day: 1, hour: 12)

  /// A camera original with everything: make, model, capture date, no software.
  private var original: PhotoMetadata {
    PhotoMetadata(container: .jpeg, hasExif: true, make: "FUJIFILM", model: "X-T5", captureDate: captured)
  }

  func testACameraOriginalScores100() {
    XCTAssertEqual(
      OriginalityScore(original),
      OriginalityScore(
        value: 100, flags: [PhotoFlag(.original, "no software info"), PhotoFlag(.original, "camera: FUJIFILM X-T5")]))
  }

  func testDesktopEditorCosts30() {
    var metadata = original
    metadata.software = "Adobe Photoshop Lightroom Classic 12.0 (Windows)"
    XCTAssertEqual(
      OriginalityScore(metadata),
      OriginalityScore(
        value: 70,
        flags: [
          PhotoFlag(.edited, "Adobe Photoshop Lightroom Classic 12.0 (Windows)"),
          PhotoFlag(.original, "camera: FUJIFILM X-T5"),
        ]))
  }

  func testMobileAppCosts20() {
    var metadata = original
    metadata.software = "Snapseed 2.0"
    XCTAssertEqual(OriginalityScore(metadata).value, 80)
    XCTAssertEqual(OriginalityScore(metadata).flags.first, PhotoFlag(.edited, "Snapseed 2.0"))
  }

  func testCameraFirmwareIsNeitherEditedNorOriginalEvidence() {
    var metadata = original
    metadata.software = "Ver.1.00"
    XCTAssertEqual(OriginalityScore(metadata).value, 100)
    XCTAssertEqual(OriginalityScore(metadata).flags, [PhotoFlag(.original, "camera: FUJIFILM X-T5")])
  }

  func testMissingMakeOrModelCosts10() {
    for (make, model) in [("FUJIFILM", nil), (nil, "X-T5"), (nil, nil)] as [(String?, String?)] {
      var metadata = original
      metadata.make = make
      metadata.model = model
      XCTAssertEqual(
        OriginalityScore(metadata),
        OriginalityScore(
          value: 90, flags: [PhotoFlag(.warning, "no camera make/model"), PhotoFlag(.original, "no software info")]))
    }
  }

  func testTheCameraIsNamedWithoutRepeatingTheMake() {
    var metadata = original
    (metadata.make, metadata.model) = ("Canon", "Canon EOS R5")
    XCTAssertTrue(OriginalityScore(metadata).flags.contains(PhotoFlag(.original, "camera: Canon EOS R5")))
  }

  func testMissingCaptureDateCosts10() {
    var metadata = original
    metadata.captureDate = nil
    XCTAssertEqual(OriginalityScore(metadata).value, 90)
    XCTAssertEqual(OriginalityScore(metadata).flags.first, PhotoFlag(.warning, "no capture date"))
  }

  func testModifiedMoreThanAMinuteAfterCaptureCosts10() {
    var metadata = original
    metadata.modificationDate = PhotoDate(year: 2023, month: 5, day: 1, hour: 12, minute: 1)
    XCTAssertEqual(OriginalityScore(metadata).value, 100, "60 s: a camera writing its file")
    metadata.modificationDate = PhotoDate(year: 2023, month: 5, day: 1, hour: 12, minute: 1, second: 1)
    XCTAssertEqual(OriginalityScore(metadata).value, 90)
    XCTAssertEqual(
      OriginalityScore(metadata).flags.first,
      PhotoFlag(.warning, "modified after capture (2023:05:01 12:00:00 → 2023:05:01 12:01:01)"))
    metadata.modificationDate = PhotoDate(year: 2023, month: 4, day: 1)
    XCTAssertEqual(OriginalityScore(metadata).value, 100, "an earlier modification date is not an edit")
  }

  func testGPSIsOriginalEvidenceAndItsAbsenceCostsNothing() {
    var metadata = original
    metadata.latitude = 48.85
    XCTAssertEqual(OriginalityScore(metadata).value, 100)
    XCTAssertFalse(OriginalityScore(metadata).flags.contains(PhotoFlag(.original, "GPS location recorded")))
    metadata.longitude = 2.29
    XCTAssertEqual(OriginalityScore(metadata).value, 100)
    XCTAssertEqual(OriginalityScore(metadata).flags.last, PhotoFlag(.original, "GPS location recorded"))
  }

  func testNoExifAtAllScoresLowWithoutClaimingOriginality() {
    XCTAssertEqual(
      OriginalityScore(PhotoMetadata(container: .jpeg, pixelWidth: 50, pixelHeight: 50)),
      OriginalityScore(
        value: 30,
        flags: [
          PhotoFlag(.warning, "no EXIF metadata"), PhotoFlag(.warning, "no camera make/model"),
          PhotoFlag(.warning, "no capture date"),
        ]))
  }

  func testTheWorstCaseIsZero() {
    // No EXIF (−50), a desktop editor (−30), no camera (−10), no capture date (−10). "Modified after capture"
    // needs a capture date, so this is the most the rules take away: the score reaches 0 and no further.
    let metadata = PhotoMetadata(container: .jpeg, software: "Adobe Photoshop 25.0")
    XCTAssertEqual(OriginalityScore(metadata).value, 0)
    XCTAssertEqual(OriginalityScore(metadata).flags.map(\.kind), [.edited, .warning, .warning, .warning])
  }

  func testFlagsAreDistinctAndOrderedEditedWarningOriginal() {
    var metadata = original
    metadata.software = "GIMP 2.10"
    metadata.latitude = 1
    metadata.longitude = 1
    metadata.modificationDate = PhotoDate(year: 2024, month: 1, day: 1)
    let flags = OriginalityScore(metadata).flags
    XCTAssertEqual(flags.map(\.kind), [.edited, .warning, .original, .original])
    XCTAssertEqual(Set(flags).count, flags.count)
    XCTAssertEqual(OriginalityScore(metadata), OriginalityScore(metadata), "the same every time")
  }

  func testEditingSoftwareIsMatchedAsWholeWordsIgnoringCase() {
    XCTAssertEqual(EditingSoftware.classify("Adobe Photoshop CC 2019 (Windows)"), .desktop)
    XCTAssertEqual(EditingSoftware.classify("GIMP 2.6.11"), .desktop)
    XCTAssertEqual(EditingSoftware.classify("paint.net 4.0.5"), .desktop)
    XCTAssertEqual(EditingSoftware.classify("PIL"), .desktop)
    XCTAssertEqual(EditingSoftware.classify("SIGMA Photo Pro 5.4.1.0000"), .desktop)
    XCTAssertEqual(EditingSoftware.classify("Adobe Photoshop Express"), .mobile, "mobile names are checked first")
    XCTAssertEqual(EditingSoftware.classify("instagram"), .mobile)
    XCTAssertEqual(EditingSoftware.classify("VSCO 250"), .mobile)
    XCTAssertNil(EditingSoftware.classify("PILOT firmware"), "PIL is not a word of it")
    XCTAssertNil(EditingSoftware.classify("DSC-RX1R v1.00"))
    XCTAssertNil(EditingSoftware.classify(""))
  }

  func testRealPhotosScoreAsTheREADMESays() throws {
    let expected: [String: Int] = [
      "01.jpg": 70, "02.jpg": 60, "L01.jpg": 100, "L02.jpg": 100, "large.jpg": 70, "noapp01.jpg": 30,
      "noexif.jpg": 30, "r_canon.jpg": 100, "r_casio.jpg": 100, "r_olympus.jpg": 100, "r_pana.jpg": 100,
      "r_pen.jpg": 100, "r_ricoh.jpg": 90, "r_sigma.jpg": 60, "r_sony.jpg": 100,
    ]
    for (name, score) in expected {
      let report = PhotoAnalysisReport(metadata: try PhotoMetadataReader.read(fileAt: PhotoFixtures.piexif(name)))
      XCTAssertEqual(report.score, score, name)
    }
  }
}

import Foundation
import PhotoAnalysis
import XCTest

/// Field by field, the reader against ExifTool — the reference the project's photos are judged by — for the EXIF,
/// TIFF and GPS tags (IFD0, Exif IFD and GPS IFD, never XMP) and Pillow for the format and pixel size
/// (`Tests/Fixtures/PhotoAnalysis/reference_reader.py`), on every committed real photo (piexif, Pillow, Exiv2 and
/// ExifTool's own test images, one of goexif's), on photos Pillow writes in the test (GPS south/west and north/east, offsets, PNG
/// `eXIf`, progressive JPEG, TIFF) and on the synthetic JPEG seeds.
///
/// ExifTool is Debian's package unpacked into `.venv/exiftool/` by `Scripts/exiftool-env` (or
/// `UNIDIRECTIONAL_EXIFTOOL`); Python is `UNIDIRECTIONAL_PYTHON`, else `<repo>/.venv/bin/python3`, with Pillow
/// pinned in `Scripts/test-requirements.txt`. Without them this test fails and says so.
final class PhotoMetadataReferenceComparisonTests: XCTestCase {
  private static let script = PhotoFixtures.folder.appendingPathComponent("reference_reader.py")

  /// Where the reader deliberately differs from ExifTool, by `corpus/file` and field, and why. Any other
  /// difference fails the test, and so does a listed one that is gone.
  private static let knownDifferences: [String: String] = [
    "goexif/geodegrees_as_string.jpg latitude": textCoordinate,
    "goexif/geodegrees_as_string.jpg longitude": textCoordinate,
  ]

  /// An HTC One M8 writes coordinates as ASCII (`"52,00000,50,00000,34,01180"`, rationals with a decimal comma);
  /// ExifTool takes the first three numbers in it (52° 0' 50" instead of 52° 50' 34"); we report none.
  private static let textCoordinate = "a coordinate written as text is not read"

  func testEveryFieldAgreesWithExifTool() throws {
    let python = try ReferencePython.interpreter()
    let exifTool = try ReferencePython.exifTool()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reference-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try ReferencePython.run(python, [Self.script.path, "--generate", folder.path])

    let generated = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      .map { folder.appendingPathComponent($0) }
    XCTAssertEqual(generated.count, 4, "Pillow wrote its photos")
    let seeds = PhotoFixtures.syntheticSeeds.map(\.0).filter { $0.hasSuffix(".jpg") }
      .map { PhotoFixtures.fuzzCorpusFolder.appendingPathComponent($0) }
    let real = PhotoFixtures.realPhotos
    XCTAssertEqual(real.count, 16 + 20 + 3 + 45 + 1, "every real photo: piexif, Pillow, Exiv2, ExifTool, goexif")
    let files = real + generated + seeds

    let output = try ReferencePython.run(python, [Self.script.path, "--exiftool", exifTool] + files.map(\.path))
    let references = try output.split(separator: "\n").map {
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    XCTAssertEqual(references.count, files.count)

    var compared = 0
    var differences: [String: String] = [:]
    for (file, reference) in zip(files, references) {
      let name = file.deletingLastPathComponent().lastPathComponent + "/" + file.lastPathComponent
      XCTAssertEqual(reference["file"] as? String, file.path)
      let ours = Result { () throws(PhotoAnalysisError) in try PhotoMetadataReader.read(fileAt: file) }
      if reference["error"] as? String == "invalidImage" {
        guard case .failure(.invalidImage) = ours else {
          XCTFail("\(name): the reference says invalidImage, we read \(ours)")
          continue
        }
        continue
      }
      guard case let .success(metadata) = ours else { XCTFail("\(name): \(ours)"); continue }
      for (field, value) in Self.fields(metadata) {
        compared += 1
        let expected = reference[field].flatMap { $0 is NSNull ? nil : $0 }
        if !Self.same(value, expected) {
          differences["\(name) \(field)"] =
            "ours \(String(describing: value)), ExifTool \(String(describing: expected))"
        }
      }
    }
    let unexplained = differences.filter { Self.knownDifferences[$0.key] == nil }
    XCTAssertEqual(unexplained, [:], "fields that disagree with ExifTool")
    let gone = Set(Self.knownDifferences.keys).subtracting(differences.keys)
    XCTAssertEqual(gone, [], "listed differences that no longer happen: take them off the list")
    let invalid = references.filter { $0["error"] != nil }.count
    XCTAssertEqual(compared, 15 * (files.count - invalid), "15 fields of every file but those that are no image")
    print(
      "PhotoMetadataReferenceComparisonTests: \(files.count) files (\(real.count) real), \(compared) fields, "
        + "\(compared - differences.count) agree with ExifTool, \(differences.count) listed differences")
  }

  private static func fields(_ metadata: PhotoMetadata) -> [(String, Any?)] {
    [
      ("container", metadata.container.rawValue), ("hasExif", metadata.hasExif), ("make", metadata.make),
      ("model", metadata.model), ("software", metadata.software), ("lensMake", metadata.lensMake),
      ("lensModel", metadata.lensModel), ("pixelWidth", metadata.pixelWidth), ("pixelHeight", metadata.pixelHeight),
      ("captureDate", metadata.captureDate?.description),
      ("modificationDate", metadata.modificationDate?.description), ("orientation", metadata.orientation),
      ("latitude", metadata.latitude), ("longitude", metadata.longitude),
      (
        "altitude",
        metadata.altitude.map { ["meters": $0.meters, "reference": $0.reference.rawValue] as [String: Any] }
      ),
    ]
  }

  /// Equal strings, integers, booleans, dictionaries of those; doubles to 1e-9 relative (ExifTool prints a
  /// rational with 10 significant digits, a coordinate with 15).
  private static func same(_ ours: Any?, _ reference: Any?) -> Bool {
    switch (ours, reference) {
    case (nil, nil): return true
    case let (ours as Bool, reference as Bool): return ours == reference
    case let (ours as Int, reference as NSNumber):
      return ours == reference.intValue && Double(ours) == reference.doubleValue
    case let (ours as Double, reference as NSNumber):
      return abs(ours - reference.doubleValue) <= 1e-9 * max(1, abs(reference.doubleValue))
    case let (ours as String, reference as String): return ours == reference
    case let (ours as [String: Any], reference as [String: Any]):
      return ours.count == reference.count && ours.allSatisfy { same($0.value, reference[$0.key]) }
    default: return false
    }
  }
}

import Foundation
import PhotoAnalysis
import XCTest

/// Field by field, the reader against a reference reader — Python's `exifread` for the EXIF/TIFF/GPS tags and
/// Pillow for the format and pixel size (`Tests/Fixtures/PhotoAnalysis/reference_reader.py`) — on every real photo,
/// on photos Pillow itself writes (GPS south/west and north/east, offsets, PNG `eXIf`, progressive JPEG, TIFF) and on
/// the synthetic JPEG seeds. The interpreter is `UNIDIRECTIONAL_PYTHON`, else `<repo>/.venv/bin/python3`, with the
/// packages pinned in `Scripts/test-requirements.txt`; without them this test fails and says so.
final class PhotoMetadataReferenceComparisonTests: XCTestCase {
  private static let script = PhotoFixtures.folder.appendingPathComponent("reference_reader.py")

  func testEveryFieldAgreesWithExifreadAndPillow() throws {
    let python = try ReferencePython.interpreter()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reference-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try ReferencePython.run(python, [Self.script.path, "--generate", folder.path])

    let generated = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      .map { folder.appendingPathComponent($0) }
    XCTAssertEqual(generated.count, 4, "Pillow wrote its photos")
    let seeds = PhotoFixtures.syntheticSeeds.map(\.0).filter { $0.hasSuffix(".jpg") }
      .map { PhotoFixtures.fuzzCorpusFolder.appendingPathComponent($0) }
    let files = PhotoFixtures.piexifPhotos + generated + seeds
    XCTAssertEqual(PhotoFixtures.piexifPhotos.count, 16, "every real photo of the piexif set")

    let output = try ReferencePython.run(python, [Self.script.path] + files.map(\.path))
    let references = try output.split(separator: "\n").map {
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    XCTAssertEqual(references.count, files.count)

    var comparedFields = 0
    for (file, reference) in zip(files, references) {
      let name = file.lastPathComponent
      XCTAssertEqual(reference["file"] as? String, file.path)
      let ours = Result { () throws(PhotoAnalysisError) in try PhotoMetadataReader.read(fileAt: file) }
      if reference["error"] as? String == "invalidImage" {
        guard case .failure(.invalidImage) = ours else { XCTFail("\(name): the reference says invalidImage, we read \(ours)"); continue }
        continue
      }
      guard case let .success(metadata) = ours else { XCTFail("\(name): \(ours)"); continue }
      let fields: [(String, Any?)] = [
        ("container", metadata.container.rawValue), ("hasExif", metadata.hasExif), ("make", metadata.make),
        ("model", metadata.model), ("software", metadata.software), ("lensMake", metadata.lensMake),
        ("lensModel", metadata.lensModel), ("pixelWidth", metadata.pixelWidth), ("pixelHeight", metadata.pixelHeight),
        ("captureDate", metadata.captureDate?.description),
        ("modificationDate", metadata.modificationDate?.description), ("orientation", metadata.orientation),
        ("latitude", metadata.latitude), ("longitude", metadata.longitude),
        ("altitude", metadata.altitude.map { ["meters": $0.meters, "reference": $0.reference.rawValue] as [String: Any] }),
      ]
      for (field, value) in fields {
        comparedFields += 1
        let expected = reference[field].flatMap { $0 is NSNull ? nil : $0 }
        XCTAssertTrue(
          Self.same(value, expected), "\(name) \(field): ours \(String(describing: value)), reference \(String(describing: expected))")
      }
    }
    XCTAssertEqual(comparedFields, 15 * (files.count - 1), "15 fields of every file but the empty one")
  }

  /// Equal strings, integers, booleans, dictionaries of those; doubles to 1e-9.
  private static func same(_ ours: Any?, _ reference: Any?) -> Bool {
    switch (ours, reference) {
    case (nil, nil): return true
    case let (ours as Bool, reference as Bool): return ours == reference
    case let (ours as Int, reference as NSNumber): return ours == reference.intValue && Double(ours) == reference.doubleValue
    case let (ours as Double, reference as NSNumber): return abs(ours - reference.doubleValue) < 1e-9
    case let (ours as String, reference as String): return ours == reference
    case let (ours as [String: Any], reference as [String: Any]):
      return ours.count == reference.count && ours.allSatisfy { same($0.value, reference[$0.key]) }
    default: return false
    }
  }
}

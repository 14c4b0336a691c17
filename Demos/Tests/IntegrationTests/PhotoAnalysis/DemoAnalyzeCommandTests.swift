import Foundation
import XCTest

/// `demo analyze` run as a person would, on the real test photos (`Tests/Fixtures/PhotoAnalysis/piexif`).
final class DemoAnalyzeCommandTests: XCTestCase {
  private static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/PhotoAnalysis/piexif")

  private func photo(_ name: String) -> String { Self.photos.appendingPathComponent(name).path }

  func testPrintsAReportPerPhoto() throws {
    let folder = try makeScratchFolder("demo-analyze")
    let result = try DemoProcess.run(["analyze", photo("r_sony.jpg"), photo("02.jpg")], in: folder)
    XCTAssertEqual(result.status, 0, result.errors)
    XCTAssertEqual(
      result.output,
      """
      \(photo("r_sony.jpg")): originality 100/100
        image: JPEG 80×80
        camera: SONY DSC-RX1R
        software: DSC-RX1R v1.00
        captured: 2013:04:13 10:22:18
        modified: 2013:04:13 10:22:18
        orientation: 1
        original: camera: SONY DSC-RX1R
      \(photo("02.jpg")): originality 60/100
        image: JPEG 400×210
        camera: CASIO COMPUTER CO.,LTD QV-R51
        software: GIMP 2.6.11
        captured: 2006:02:16 21:19:26
        modified: 2011:01:31 01:48:29
        orientation: 1
        edited: GIMP 2.6.11
        warning: modified after capture (2006:02:16 21:19:26 → 2011:01:31 01:48:29)
        original: camera: CASIO COMPUTER CO.,LTD QV-R51

      """)
  }

  func testJSONHasEveryFieldForEveryFileAndExitsOneWhenAFileFails() throws {
    let folder = try makeScratchFolder("demo-analyze")
    let result = try DemoProcess.run(["analyze", Self.photos.path, "--json"], in: folder)
    XCTAssertEqual(result.status, 1, "notjpeg.jpg is empty, NOTICE.md is text: \(result.errors)")
    let objects = try result.output.split(separator: "\n").map {
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0))
    }
    let names = objects.compactMap { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
    XCTAssertEqual(
      names,
      [
        "01.jpg", "02.jpg", "L01.jpg", "L02.jpg", "NOTICE.md", "large.jpg", "noapp01.jpg", "noexif.jpg", "notjpeg.jpg",
        "r_canon.jpg", "r_casio.jpg", "r_olympus.jpg", "r_pana.jpg", "r_pen.jpg", "r_ricoh.jpg", "r_sigma.jpg",
        "r_sony.jpg",
      ], "every file of the folder, by name, the license note too")
    let keys: Set<String> = [
      "file", "container", "hasExif", "make", "model", "lensMake", "lensModel", "software", "pixelWidth",
      "pixelHeight", "captureDate", "modificationDate", "orientation", "latitude", "longitude", "altitude",
      "altitudeReference", "score", "flags", "error",
    ]
    for object in objects { XCTAssertEqual(Set(object.keys), keys) }

    let ricoh = try XCTUnwrap(objects.first { ($0["file"] as? String)?.hasSuffix("r_ricoh.jpg") == true })
    XCTAssertEqual(ricoh["lensModel"] as? String, "GR LENS")
    XCTAssertEqual(ricoh["score"] as? Int, 90)
    XCTAssertTrue(ricoh["latitude"] is NSNull)
    XCTAssertTrue(ricoh["error"] is NSNull)
    XCTAssertEqual(
      ricoh["flags"] as? [[String: String]],
      [
        ["kind": "warning", "message": "modified after capture (2013:03:29 10:06:41 → 2013:04:08 15:16:01)"],
        ["kind": "original", "message": "camera: PENTAX RICOH IMAGING GR"],
      ])
    let empty = try XCTUnwrap(objects.first { ($0["file"] as? String)?.hasSuffix("notjpeg.jpg") == true })
    XCTAssertEqual(
      empty["error"] as? [String: String], ["kind": "invalidImage", "message": "Not an image: the file is empty"])
    XCTAssertTrue(empty["score"] is NSNull)
    let notice = try XCTUnwrap(objects.first { ($0["file"] as? String)?.hasSuffix("NOTICE.md") == true })
    XCTAssertEqual((notice["error"] as? [String: String])?["kind"], "invalidImage")
  }

  func testUsageErrorsExitTwo() throws {
    let folder = try makeScratchFolder("demo-analyze")
    for arguments in [["analyze"], ["analyze", "--csv", photo("r_sony.jpg")]] {
      let result = try DemoProcess.run(arguments, in: folder)
      XCTAssertEqual(result.status, 2, "\(arguments)")
      XCTAssertTrue(result.errors.contains("usage: demo analyze FILE_OR_DIR… [--json]"), result.errors)
      XCTAssertEqual(result.output, "")
    }
  }

  func testAMissingFileFailsWithExitOneAndTheOthersAreStillReported() throws {
    let folder = try makeScratchFolder("demo-analyze")
    let missing = folder.appendingPathComponent("gone.jpg").path
    let result = try DemoProcess.run(["analyze", missing, photo("noexif.jpg")], in: folder)
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(
      result.output.hasPrefix("\(missing): ✗ Could not read \(missing): No such file or directory\n"), result.output)
    XCTAssertTrue(
      result.output.contains("\(photo("noexif.jpg")): originality 30/100\n  image: JPEG 50×50, no EXIF\n"),
      result.output)
  }
}

extension DemoAnalyzeCommandTests {
  func testTextFromThePhotoCannotDriveTheTerminal() throws {
    let folder = try makeScratchFolder("demo-analyze")
    // A JPEG whose Make holds an escape sequence and a newline: IFD0 with one ASCII entry, then SOF0 and SOS.
    let make = Array("Evil\u{1B}[2J\nCam".utf8) + [0]
    var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x0F, 0x01, 2, 0]
    tiff += [UInt8(make.count), 0, 0, 0, 26, 0, 0, 0, 0, 0, 0, 0] + make
    var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8((tiff.count + 8) >> 8), UInt8((tiff.count + 8) & 0xFF)]
    jpeg += Array("Exif".utf8) + [0, 0] + tiff
    jpeg += [0xFF, 0xC0, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0, 0xFF, 0xDA, 0, 2, 0xFF, 0xD9]
    let photo = folder.appendingPathComponent("evil.jpg")
    try Data(jpeg).write(to: photo)

    let result = try DemoProcess.run(["analyze", photo.path], in: folder)
    XCTAssertEqual(result.status, 0, result.errors)
    XCTAssertFalse(result.output.contains("\u{1B}"), result.output)
    XCTAssertTrue(result.output.contains(#"  camera: Evil\u{1B}[2J\nCam"#), result.output)
    XCTAssertTrue(result.output.contains(#"  warning: no camera make/model"#), result.output)
  }
}

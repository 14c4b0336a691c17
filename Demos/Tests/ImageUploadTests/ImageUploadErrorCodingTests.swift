import Foundation
import HTTPClient
import ImageUpload
import XCTest

/// `ImageUploadError` in an action log: every case survives JSON, an HTTP failure is written inside `http`, and the
/// form logs had before the HTTP layer had an error of its own (an HTTP failure unwrapped) still reads.
final class ImageUploadErrorCodingTests: XCTestCase {
  private func decode(_ json: String) throws -> ImageUploadError {
    try JSONDecoder().decode(ImageUploadError.self, from: Data(json.utf8))
  }

  func testEveryCaseRoundTrips() throws {
    let errors: [ImageUploadError] = [
      .tooManyItems(count: 12, maximum: 10), .unreadableFile(path: "/p/a.png", reason: "gone"),
      .unsupportedImage(path: "/p/a.txt"), .presignCountMismatch(requested: 3, received: 2), .rejected(message: "no"),
      .http(.unreadableFile(path: "/p/a.png", reason: "gone")), .http(.cancelled),
      .http(.attemptsFailed(count: 3, last: .storageRejected(status: 503, code: "SlowDown", message: nil))),
    ]
    for error in errors {
      XCTAssertEqual(try JSONDecoder().decode(ImageUploadError.self, from: JSONEncoder().encode(error)), error)
    }
  }

  func testAnHTTPFailureIsWrittenInsideHTTP() throws {
    let json = String(decoding: try JSONEncoder().encode(ImageUploadError.http(.cancelled)), as: UTF8.self)
    XCTAssertEqual(json, #"{"http":{"_0":{"cancelled":{}}}}"#)
  }

  func testLogsWrittenBeforeTheHTTPLayerHadItsOwnErrorStillRead() throws {
    XCTAssertEqual(try decode(#"{"timedOut":{"host":"api:8000"}}"#), .http(.timedOut(host: "api:8000")))
    XCTAssertEqual(
      try decode(#"{"httpStatus":{"_0":413,"message":"too large"}}"#), .http(.httpStatus(413, message: "too large")))
    XCTAssertEqual(
      try decode(#"{"attemptsFailed":{"count":2,"last":{"connectionLost":{"host":"s3"}}}}"#),
      .http(.attemptsFailed(count: 2, last: .connectionLost(host: "s3"))))
    XCTAssertEqual(try decode(#"{"tooManyItems":{"count":12,"maximum":10}}"#), .tooManyItems(count: 12, maximum: 10))
  }

  func testAnUnknownCaseIsRefused() {
    XCTAssertThrowsError(try decode(#"{"nonsense":{}}"#)) { XCTAssertTrue($0 is DecodingError, "\($0)") }
  }
}

import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@testable import HTTPClient

/// The draft's header fields as servers send them, and what the client refuses to believe.
final class ResumableUploadFieldsTests: XCTestCase {
  func testUploadLimitReadsTheKnownKeysOfBothInteropVersions() {
    XCTAssertEqual(
      UploadLimits(fieldValue: "max-size=1073741824, max-append-size=8388608, max-age=3600"),
      UploadLimits(maxSize: 1_073_741_824, maxAppendSize: 8_388_608, maxAge: 3600))
    XCTAssertEqual(UploadLimits(fieldValue: "expires=60"), UploadLimits(maxAge: 60), "interop 6 says expires")
    XCTAssertEqual(UploadLimits(fieldValue: "min-size=0"), UploadLimits(minSize: 0), "Apple's server")
    XCTAssertEqual(
      UploadLimits(fieldValue: "min-append-size=10;x=1, future-key=\"a, b\", max-size=5"),
      UploadLimits(maxSize: 5, minAppendSize: 10), "parameters and unknown keys are ignored")
  }

  func testAnUploadLimitWithAKnownKeyOfTheWrongTypeIsIgnoredWhole() {
    XCTAssertNil(UploadLimits(fieldValue: "max-size=\"10\""))
    XCTAssertNil(UploadLimits(fieldValue: "max-size=-1"))
    XCTAssertNil(UploadLimits(fieldValue: "max-size=1.5"))
    XCTAssertNil(UploadLimits(fieldValue: "max-size"), "a bare key is the boolean true")
    XCTAssertNil(UploadLimits(fieldValue: "Max-Size=10"), "keys are lowercase")
    XCTAssertNil(UploadLimits(fieldValue: "max-size=10,,"))
  }

  func testBooleansAndIntegersAreStructuredFieldItems() {
    XCTAssertEqual(StructuredField.boolean("?1"), true)
    XCTAssertEqual(StructuredField.boolean(" ?0;a=1 "), false)
    XCTAssertNil(StructuredField.boolean("true"))
    XCTAssertNil(StructuredField.boolean("1"))
    XCTAssertNil(StructuredField.boolean(nil))
    XCTAssertEqual(StructuredField.integer("50000000"), 50_000_000)
    XCTAssertEqual(StructuredField.integer("999999999999999"), 999_999_999_999_999)
    XCTAssertNil(StructuredField.integer("1000000000000000"), "more than 15 digits")
    XCTAssertNil(StructuredField.integer("-5"))
    XCTAssertNil(StructuredField.integer("0x10"))
    XCTAssertNil(StructuredField.integer(""))
  }

  func testAFilenameGoesOutAsAnInlineDisposition() {
    XCTAssertEqual(ResumableUploadRun.contentDisposition("scan.usdz"), "inline; filename=\"scan.usdz\"")
    XCTAssertEqual(
      ResumableUploadRun.contentDisposition("Ärger \"1\".usdz"),
      "inline; filename*=UTF-8''%C3%84rger%20%221%22.usdz")
    XCTAssertEqual(
      ResumableUploadRun.contentDisposition("a\r\nX-Evil: 1"), "inline; filename*=UTF-8''a%0D%0AX-Evil%3A%201",
      "a name cannot start a header line")
    XCTAssertNil(ResumableUploadRun.contentDisposition(""))
    XCTAssertNil(ResumableUploadRun.contentDisposition(nil))
  }

  func testCredentialsGoToTheEndpointsOriginOnly() {
    var configuration = ResumableUploadConfiguration(
      endpoint: URL(string: "http://api.example:8000/resumable-uploads")!, token: BearerToken("secret"),
      additionalHeaders: ["X-Test-Drop-After": "10"])
    let uploader = ResumableUploader(configuration: configuration)
    var sameOrigin = HTTPRequest(
      method: "HEAD", url: URL(string: "http://API.example:8000/resumable-uploads/abc")!)
    uploader.authorize(&sameOrigin)
    XCTAssertEqual(sameOrigin.header("Authorization"), "Bearer secret")
    XCTAssertEqual(sameOrigin.header("X-Test-Drop-After"), "10")
    for other in ["http://storage.example:8000/u/abc", "https://api.example:8000/u", "http://api.example:8001/u"] {
      var request = HTTPRequest(method: "HEAD", url: URL(string: other)!)
      uploader.authorize(&request)
      XCTAssertNil(request.header("Authorization"), other)
      XCTAssertNil(request.header("X-Test-Drop-After"), other)
    }
    configuration.endpoint = URL(string: "https://api.example/x")!
    var implicitPort = HTTPRequest(method: "HEAD", url: URL(string: "https://api.example:443/y")!)
    ResumableUploader(configuration: configuration).authorize(&implicitPort)
    XCTAssertNotNil(implicitPort.header("Authorization"), "443 is https's default port")
  }

  func testTheConfigurationNeverPrintsTheToken() {
    let configuration = ResumableUploadConfiguration(
      endpoint: URL(string: "http://127.0.0.1:8000/u")!, token: BearerToken("secret-token"))
    XCTAssertFalse("\(configuration)".contains("secret-token"))
    XCTAssertTrue("\(configuration)".contains("<redacted>"))
  }
}

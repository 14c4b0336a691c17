import FeatureTestSupport
import Foundation
import HTTPClient
import ImageUpload
import Unidirectional
import UnidirectionalTesting
import XCTest

/// The clients' non-live values, the configuration and the error texts.
final class UploadClientValuesTests: XCTestCase {
  func testTheTokenNeverShowsInPrintedDumpedOrMirroredConfiguration() {
    let secret = "s3cr3t-token-value"
    let configuration = UploadServerConfiguration(
      apiBaseURL: URL(fileURLWithPath: "/"), token: BearerToken(secret), additionalHeaders: ["X-Test-Fault": "x"])
    var dumped = ""
    dump(configuration, to: &dumped)
    for text in [
      "\(configuration)", String(reflecting: configuration), customDump(configuration), dumped,
      "\(configuration.token)", String(reflecting: configuration.token), customDump(configuration.token),
    ] {
      XCTAssertFalse(text.contains(secret), text)
    }
    XCTAssertEqual("\(configuration.token)", "<redacted>")
    XCTAssertTrue("\(configuration)".contains("token: <redacted>"))
  }

  func testTheConfigurationComesFromTheEnvironment() throws {
    let configuration = try UploadServerConfiguration.fromEnvironment(
      ["UPLOAD_API_URL": "http://127.0.0.1:8000", "UPLOAD_API_TOKEN": "t"], configFiles: [])
    XCTAssertEqual(configuration.apiBaseURL.absoluteString, "http://127.0.0.1:8000")
    XCTAssertEqual(configuration.token, BearerToken("t"))
    XCTAssertEqual(configuration.maxConcurrentUploads, 4)

    let cases: [([String: String], String)] = [
      ([:], "set UPLOAD_API_URL and UPLOAD_API_TOKEN, or pass a configuration"),
      (["UPLOAD_API_URL": "ftp://x", "UPLOAD_API_TOKEN": "t"], "UPLOAD_API_URL must be an http(s) URL"),
      (
        ["UPLOAD_API_URL": "http://127.0.0.1:1"],
        "set UNIDIRECTIONAL_API_TOKEN or UPLOAD_API_TOKEN to the API server's bearer token"
      ),
    ]
    for (environment, message) in cases {
      XCTAssertThrowsError(try UploadServerConfiguration.fromEnvironment(environment, configFiles: [])) {
        XCTAssertEqual($0 as? ImageUploadError, .http(.notConfigured(message)))
      }
    }
    XCTAssertEqual(
      UploadServerConfiguration(apiBaseURL: URL(fileURLWithPath: "/"), token: BearerToken("t"), maxConcurrentUploads: 0)
        .maxConcurrentUploads, 1)
  }

  func testAnUnconfiguredLiveClientFailsWithATypedError() async {
    let client = ImageUploadClient.fromEnvironment([:])
    do {
      _ = try await client.upload([], .archive) { _ in }
      XCTFail("expected notConfigured")
    } catch {
      XCTAssertEqual(
        error as? ImageUploadError,
        .http(.notConfigured("set UPLOAD_API_URL and UPLOAD_API_TOKEN, or pass a configuration")))
    }
  }

  func testTheTestValuesReportAnIssueWhenCalled() async {
    let issues = Recorder<String>()
    await withDependencies {
      $0.issueReporter = IssueReporter { issues.append($0.message) }
    } operation: {
      do {
        _ = try await ImageUploadClient.unimplemented.upload([], .archive) { _ in }
        XCTFail("expected a throw")
      } catch {
        XCTAssertEqual(
          error as? ImageUploadError, .http(.notConfigured("ImageUploadClient.upload is unimplemented in tests")))
      }
      do {
        _ = try await ImageLoaderClient.unimplemented.load([])
        XCTFail("expected a throw")
      } catch {
        XCTAssertEqual(
          error as? ImageUploadError, .http(.notConfigured("ImageLoaderClient.load is unimplemented in tests")))
      }
    }
    XCTAssertEqual(
      issues.values,
      [
        "ImageUploadClient.upload is unimplemented: override \\.imageUploadClient in this test.",
        "ImageLoaderClient.load is unimplemented: override \\.imageLoader in this test.",
      ])
  }

  func testThePreviewClientSimulatesProgressOnTheInjectedClock() async {
    let clock = TestClock()
    let items = [
      UploadItem(fileURL: URL(fileURLWithPath: "/a.png"), contentType: "image/png", byteCount: 600),
      UploadItem(fileURL: URL(fileURLWithPath: "/b.jpg"), contentType: "image/jpeg", byteCount: 400),
    ]
    let ids = [
      MediaID("preview-00000000-0000-0000-0000-000000000000"),
      MediaID("preview-00000000-0000-0000-0000-000000000001"),
    ]
    let store = TestStore(initialState: ImageUploadFeature.State(mediaType: .archive)) {
      ImageUploadFeature()
    } withDependencies: {
      $0.clock = clock
      $0.uuid = .incrementing
      $0.imageUploadClient = .preview
    }
    await store.send(.uploadRequested(items)) {
      $0.status = .uploading(UploadProgress(completedBytes: 0, totalBytes: 1_000))
    }
    for step in 1...10 {
      await clock.advance(by: .milliseconds(100))
      let progress = UploadProgress(completedBytes: Int64(step) * 100, totalBytes: 1_000)
      await store.receive(.uploadProgressed(progress)) { $0.status = .uploading(progress) }
    }
    await store.receive(.uploadCompleted(ids)) { $0.status = .success(ids) }
    await store.receive(.delegate(.uploadCompleted(ids)))
    XCTAssertEqual(clock.now.offset, .seconds(1))
    await clock.advance(by: .seconds(3))
    await store.receive(.statusCleared) { $0.status = .idle }
    await store.finish()
  }

  func testErrorsReadWell() {
    XCTAssertEqual(
      ImageUploadError.presignCountMismatch(requested: 3, received: 2).description,
      "The server returned 2 upload URLs for 3 images; nothing was uploaded.")
    XCTAssertEqual(
      ImageUploadError.http(.httpStatus(401, message: "invalid or missing bearer token")).description,
      "The server answered HTTP 401: invalid or missing bearer token")
    XCTAssertEqual(
      ImageUploadError.http(.storageRejected(status: 403, code: "SignatureDoesNotMatch", message: nil)).description,
      "The storage server refused the upload (HTTP 403): SignatureDoesNotMatch")
    XCTAssertEqual(
      ImageUploadError.http(.cannotConnect(host: "127.0.0.1:9")).description,
      "Cannot connect to 127.0.0.1:9. Check the network and that the server is running.")
    XCTAssertEqual(ImageUploadError.http(.cancelled).description, "The upload was cancelled.")
    XCTAssertEqual(ImageUploadError(CancellationError()), .http(.cancelled))
    XCTAssertEqual(ImageUploadError(URLError(.cannotConnectToHost), host: "h:1"), .http(.cannotConnect(host: "h:1")))
    XCTAssertEqual(ImageUploadError(URLError(.timedOut), host: "h:1"), .http(.timedOut(host: "h:1")))
    XCTAssertEqual(ImageUploadError(URLError(.networkConnectionLost), host: "h:1"), .http(.connectionLost(host: "h:1")))
    XCTAssertEqual(
      ImageUploadError(URLError(.badServerResponse)), .http(.network(code: URLError.badServerResponse.rawValue)))
  }

  func testUploadItemsGetAnExtensionThatFitsTheirContentType() {
    XCTAssertEqual(UploadItem.fileExtension(forContentType: "image/jpeg"), "jpg")
    XCTAssertEqual(UploadItem.fileExtension(forContentType: "IMAGE/PNG"), "png")
    XCTAssertEqual(UploadItem.fileExtension(forContentType: "model/vnd.usdz+zip"), "usdz")
    XCTAssertEqual(UploadItem.fileExtension(forContentType: "image/x-custom", fallback: "Raw"), "raw")
    XCTAssertEqual(UploadItem.fileExtension(forContentType: "image/x-custom", fallback: "../x"), "x")
    XCTAssertEqual(UploadItem.fileExtension(forContentType: "image/x-custom"), "bin")
    XCTAssertEqual(UploadProgress(completedBytes: 1, totalBytes: 3).percent, 33)
    XCTAssertEqual(UploadProgress(completedBytes: 0, totalBytes: 0).fractionCompleted, 1)
  }
}
